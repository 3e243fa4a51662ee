// EMQX's config roots as this server holds them, for `GET/PUT /configs` and `/configs_reset`:
// each root shows what is in force, checks a change before any is applied (merge over what is in
// force, or replace over EMQX's defaults) and knows its defaults. A root is another area's
// settings document (mqtt, sys_topics, alarm, retainer, …), or kept at EMQX's defaults where the
// embedded broker does not implement it (force_shutdown, broker, limiter, …).
import { KEPT_ROOTS, MQTT_KEPT } from '../../../contract/mqtt-configs.ts'
import { badRequest } from '../../http/errors.ts'
import { objectBody, prepareChange, unsupportedKeys, type Settings, type SettingsStore } from '../../http/settings-route.ts'
import * as v from 'valibot'

export type LoadMode = 'merge' | 'replace'

export interface ConfigRoot {
  /** The root in force, as GET answers it. */
  current(): unknown
  /** Checks `value` now (a 400 when wrong) and returns what puts it in force. */
  prepare(value: unknown, mode: LoadMode): () => void
  /**
   * Once every root of a `PUT /configs` was prepared, before any is put in force: what a root's
   * change must agree on with the others' (a connector one root drops and another root's action
   * uses). A 400 as `prepare` throws it.
   */
  settle?(): void
  /** EMQX's defaults, for a reset and a replace. */
  defaults(): unknown
}

/** A settings document as a root. */
export function settingsRoot<S extends v.GenericSchema>(name: string, settings: Settings<S>, defaultsOf: () => unknown): ConfigRoot {
  const defaults = () => structuredClone(defaultsOf())
  return {
    current: () => settings.current(),
    prepare: (value, mode) => prepareChange(mode === 'merge' ? settings : { ...settings, current: () => defaults() as v.InferInput<S> }, value, name),
    defaults,
  }
}

/** A root made of sections, each a root of its own (`sysmon.os`); other sections are refused. */
export function sectionsRoot(name: string, sections: Record<string, ConfigRoot>): ConfigRoot {
  const each = <T>(f: (root: ConfigRoot) => T) => Object.fromEntries(Object.entries(sections).map(([key, root]) => [key, f(root)]))
  return {
    current: () => each((root) => root.current()),
    prepare: (value, mode) => {
      const body = objectBody(value, name)
      const problem = unsupportedKeys(body, Object.keys(sections))
      if (problem) throw badRequest(`${name}: ${problem}`)
      const changes = Object.entries(sections)
        .filter(([key]) => body[key] !== undefined || mode === 'replace')
        .map(([key, root]) => root.prepare(body[key] ?? {}, mode))
      return () => changes.forEach((change) => change())
    },
    defaults: () => each((root) => root.defaults()),
  }
}

/** Where nothing is kept: a root the broker does not implement changes nothing. */
export const nowhere: SettingsStore = { get: () => undefined, set: () => {} }

/** A root the embedded broker does not implement: shown at EMQX's defaults, a change refused. */
export function keptRoot<S extends v.GenericSchema>(name: string, schema: S, values: () => v.InferInput<S>): ConfigRoot {
  return settingsRoot(name, { schema, current: values, store: nowhere, key: name, apply: () => {} }, values)
}

/** The zone's `mqtt` root at EMQX's defaults: the broker's defaults and the kept keys. */
export function mqttDefaults(brokerDefaults: object): unknown {
  return { ...structuredClone(brokerDefaults), ...structuredClone(MQTT_KEPT) }
}

export { KEPT_ROOTS }
