// The rule engine in a data backup, as EMQX's cluster.hocon holds it: the `rule_engine` root with its
// settings and `rules` (each rule's raw config by id). An import checks every rule (its config and
// SQL) before anything is written, then merges the rules over the saved ones (emqx_rule_engine
// import_config: rules the backup does not name are kept) and puts them in force.
import * as v from 'valibot'
import type { SettingsStore } from '../../http/settings-route.ts'
import { badRequest } from '../../http/errors.ts'
import type { ConfigRoot } from '../configs/roots.ts'
import { checkRuleConfig } from './rule-config.ts'
import type { RulesFeature } from './feature.ts'
import { ruleEngineSettings } from './settings.ts'

const SETTINGS_KEY = 'rule_engine'

type RuleEngineRoot = Record<string, unknown> & { rules?: Record<string, Record<string, unknown>> }

/** The `rule_engine` root as a data backup's settings document (server/areas/data-backup/documents.ts). */
export function ruleEngineDocument(rules: RulesFeature, configs: SettingsStore) {
  const settings = ruleEngineSettings(rules.engine, configs)
  const store: SettingsStore = {
    get(): RuleEngineRoot | undefined {
      const saved = configs.get(SETTINGS_KEY) as Record<string, unknown> | undefined
      const list = rules.repository.list()
      if (saved === undefined && list.length === 0) return undefined
      return { ...saved, ...(list.length > 0 ? { rules: Object.fromEntries(list.map((rule) => [rule.id, rule.config])) } : {}) }
    },
    set(_key, value) {
      const { rules: imported = {}, ...engineSettings } = value as RuleEngineRoot
      if (Object.keys(engineSettings).length > 0) configs.set(SETTINGS_KEY, { ...(settings.current() as Record<string, unknown>), ...engineSettings })
      const now = Date.now()
      for (const [id, config] of Object.entries(imported)) {
        const metadata = config.metadata as Record<string, unknown> | undefined
        const createdAt = typeof metadata?.created_at === 'number' ? metadata.created_at : now
        const updatedAt = typeof metadata?.last_modified_at === 'number' ? metadata.last_modified_at : createdAt
        rules.repository.put({ id, config, createdAt, updatedAt })
      }
    },
  }
  let problem = ''
  const valid = (value: RuleEngineRoot): boolean => {
    try {
      const { rules: imported = {}, ...engineSettings } = value
      const merged = v.safeParse(settings.schema, { ...(settings.current() as Record<string, unknown>), ...engineSettings })
      if (!merged.success) throw new Error(merged.issues[0].message)
      for (const [id, config] of Object.entries(imported)) rules.engine.compile(checkRuleConfig(id, config).sql)
      return true
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error)
      return false
    }
  }
  return {
    store,
    key: SETTINGS_KEY,
    schema: v.pipe(
      v.looseObject({ rules: v.optional(v.record(v.string(), v.record(v.string(), v.unknown()))) }),
      v.check((value) => valid(value as RuleEngineRoot), () => problem),
    ),
    apply: () => {
      const saved = v.safeParse(settings.schema, configs.get(SETTINGS_KEY))
      if (saved.success) settings.apply(saved.output)
      rules.reload()
    },
  }
}

/**
 * The `rule_engine` root of `GET/PUT /configs`: the same document, checked whole before anything is
 * written. A merge keeps the rules it does not name (as an import does); a replace removes them.
 */
export function ruleEngineConfigRoot(rules: RulesFeature, configs: SettingsStore): ConfigRoot {
  const document = ruleEngineDocument(rules, configs)
  const settings = ruleEngineSettings(rules.engine, configs)
  const allRules = () => Object.fromEntries(rules.repository.list().map((rule) => [rule.id, rule.config]))
  return {
    current: () => ({ ...(settings.current() as Record<string, unknown>), rules: allRules() }),
    prepare: (value, mode) => {
      const checked = v.safeParse(document.schema, value)
      if (!checked.success) throw badRequest(`rule_engine: ${checked.issues[0].message}`)
      const root = checked.output as RuleEngineRoot
      return () => {
        if (mode === 'replace') for (const rule of rules.repository.list()) if (!(rule.id in (root.rules ?? {}))) rules.delete(rule.id)
        document.store.set(document.key, root)
        document.apply()
      }
    },
    defaults: () => ({ ignore_sys_message: true, jq_function_default_timeout: 10_000, rules: {} }),
  }
}
