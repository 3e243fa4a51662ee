// The `connectors`, `actions` and `sources` roots of `GET/PUT /configs` (each `{<type>: {<name>:
// config}}`, secrets shown as `******`), as emqx_conf_cli loads them in 5.8.9: a merge deep-merges the
// body over what is in force, a replace makes the body the whole root (what it leaves out is removed).
// Every entry is checked as a create would check it before anything is written; the three roots
// prepared by one request are put in force together as 5.8's handlers diff them (root-diff.ts): only
// the entries removed, added or changed are acted on, in 5.8's order (IntegrationFeature.applyChanges).
// The hidden `bridges` root (v1 bridges, `{webhook|mqtt: {name: config}}`) is only loaded: as 5.8's
// upgrade_raw_conf does, each bridge becomes a connector and an action (or source) in those roots.
import { V1_TO_ACTION_TYPE } from '../../../contract/bridges-v1.ts'
import { resourceId } from '../../../contract/connectors.ts'
import { badRequest } from '../../http/errors.ts'
import type { ConfigRoot, LoadMode } from '../configs/roots.ts'
import { deepMerge, splitV1 } from './bridge-v1-convert.ts'
import type { IntegrationFeature } from './feature.ts'
import { diffRoot, type Root, type RootChanges } from './root-diff.ts'
import { redact } from './secrets.ts'
import type { ResourceKind, StoredResource } from './store.ts'

type Config = Record<string, unknown>

const KINDS: readonly ResourceKind[] = ['connectors', 'actions', 'sources']
const isObject = (value: unknown): value is Config => typeof value === 'object' && value !== null && !Array.isArray(value)

function rootOf(list: readonly StoredResource[], show: (config: Config) => Config = (config) => config): Root {
  const root: Root = {}
  for (const stored of list) (root[stored.type] ??= {})[stored.name] = show(stored.config)
  return root
}

/** The body of a root checked to be `{type: {name: object}}`. */
function rootBody(kind: string, value: unknown): Root {
  if (!isObject(value)) throw badRequest(`${kind}: expected an object of types`)
  for (const [type, byName] of Object.entries(value)) {
    if (!isObject(byName)) throw badRequest(`${kind}.${type}: expected an object of names`)
    for (const [name, config] of Object.entries(byName)) if (!isObject(config)) throw badRequest(`${kind}.${type}.${name}: expected an object`)
  }
  return value as Root
}

export function integrationConfigRoots(feature: IntegrationFeature): Record<ResourceKind | 'bridges', ConfigRoot> {
  const { repository } = feature
  // The roots one PUT prepared, written by the first of their changes to run. Prepares and changes of
  // one PUT run in the same turn, so what a refused PUT left here is dropped before the next one.
  const plan = new Map<ResourceKind, Root>()
  // What the body itself gave for a root (after the mode), and what its `bridges` root became.
  const given = new Map<ResourceKind, Root>()
  const converted = new Map<ResourceKind, Root>()
  const forget = () => [plan, given, converted].forEach((map) => map.clear())
  const planned = (kind: ResourceKind): Root => plan.get(kind) ?? rootOf(repository.list(kind))

  /** Each entry checked as a create checks it, and the `connectors` root as 5.8's validators check it. */
  function check(kind: ResourceKind, root: Root): Root {
    const checked: Root = {}
    for (const [type, byName] of Object.entries(root)) {
      for (const [name, config] of Object.entries(byName)) (checked[type] ??= {})[name] = feature.checkEntry(kind, type, name, config)
    }
    if (kind === 'connectors') feature.checkConnectorsRoot(new Map(Object.entries(checked.mqtt ?? {})))
    return checked
  }

  /**
   * What one root's plan must agree on with the others once every root of the request is planned
   * (5.8 removes the dropped actions and sources before it changes the connectors, and adds connectors
   * before actions and sources): every action and source names a connector that stays.
   */
  function settle(kind: ResourceKind): void {
    if (!plan.has(kind)) return
    const connectors = planned('connectors')
    for (const bridgeKind of ['actions', 'sources'] as const) {
      if (kind !== 'connectors' && kind !== bridgeKind) continue
      for (const [type, byName] of Object.entries(planned(bridgeKind))) {
        for (const [name, config] of Object.entries(byName)) {
          const connectorType = feature.connectorTypeOf(bridgeKind, type)
          const connector = String(config.connector)
          if (connectors[connectorType]?.[connector]) continue
          // A connector left out of a replace must not be in use by what stays.
          if (kind === 'connectors') throw badRequest(`connectors: ${bridgeKind.slice(0, -1)} ${resourceId(type, name)} uses connector ${resourceId(connectorType, connector)}`)
          throw badRequest(`${kind}.${type}.${name}: connector_not_found_or_wrong_type: ${connector}`)
        }
      }
    }
  }

  function write(): void {
    if (plan.size === 0) return
    const changes: Partial<Record<ResourceKind, RootChanges>> = {}
    for (const [kind, root] of plan) changes[kind] = diffRoot(repository.list(kind), root, (type, name, config, previous) => feature.row(kind, type, name, config, previous))
    forget()
    feature.applyChanges(changes)
  }

  /** A root planned from what the body gave for it (or, by the mode, what is in force) and what its v1 bridges became. */
  function planRoot(kind: ResourceKind, whole: Root): void {
    if (plan.size === 0 && given.size === 0) queueMicrotask(forget)
    given.set(kind, whole)
    plan.set(kind, check(kind, deepMerge(whole, converted.get(kind) ?? {}) as Root))
  }

  /** The v1 bridges of a `bridges` root split as POST /bridges splits them, each connector under a free name. */
  function convertBridges(value: unknown): void {
    const body = rootBody('bridges', value)
    for (const [v1Type, byName] of Object.entries(body)) {
      if (V1_TO_ACTION_TYPE[v1Type] === undefined) throw badRequest(`bridges.${v1Type}: unknown bridge type`)
      for (const [name, config] of Object.entries(byName)) {
        const split = splitV1(v1Type, config)
        const connectorType = feature.connectorTypeOf(split.kind, split.type)
        const taken = { ...planned('connectors')[connectorType], ...converted.get('connectors')?.[connectorType] }
        let connectorName = name
        for (let attempt = 2; connectorName in taken; attempt++) connectorName = `${name}_${attempt}`
        const add = (kind: ResourceKind, type: string, entryName: string, entry: Record<string, unknown>) => {
          const root = converted.get(kind) ?? {}
          ;(root[type] ??= {})[entryName] = entry
          converted.set(kind, root)
        }
        add('connectors', connectorType, connectorName, split.connector)
        add(split.kind, split.type, name, { ...split.bridge, connector: connectorName })
      }
    }
  }

  const rootFor = (kind: ResourceKind): ConfigRoot => ({
    current: () => rootOf(repository.list(kind), redact),
    prepare: (value: unknown, mode: LoadMode) => {
      const body = rootBody(kind, value)
      planRoot(kind, (mode === 'merge' ? deepMerge(rootOf(repository.list(kind)), body) : body) as Root)
      return write
    },
    settle: () => settle(kind),
    defaults: () => ({}),
  })

  const bridges: ConfigRoot = {
    current: () => ({}),
    prepare: (value: unknown, mode: LoadMode) => {
      if (plan.size === 0 && given.size === 0) queueMicrotask(forget)
      convertBridges(value)
      for (const kind of KINDS) {
        if (!converted.has(kind)) continue
        planRoot(kind, given.get(kind) ?? (mode === 'merge' ? rootOf(repository.list(kind)) : {}))
      }
      return write
    },
    settle: () => KINDS.forEach(settle),
    defaults: () => ({}),
  }

  return { connectors: rootFor('connectors'), actions: rootFor('actions'), sources: rootFor('sources'), bridges }
}
