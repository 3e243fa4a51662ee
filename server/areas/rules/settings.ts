// The rule engine's settings (EMQX `rule_engine` without its rules): ignore_sys_message and the jq
// function's default timeout, answered as 5.8 answers them (the timeout in milliseconds).
import * as v from 'valibot'
import { parseDuration } from '../../../contract/units.ts'
import { supportedKeysOnly, type Settings, type SettingsStore } from '../../http/settings-route.ts'
import type { RuleEngine } from '../../rules/engine/index.ts'

const timeoutMs = v.union(
  [
    v.pipe(v.number(), v.integer(), v.minValue(0)),
    v.pipe(
      v.string(),
      v.check((text) => parseDuration(text) !== undefined, 'must be a duration such as 10s or 500ms'),
      v.transform((text) => parseDuration(text) as number),
    ),
  ],
  'must be a duration such as 10s or 500ms',
)

export const RuleEngineSettingsInput = supportedKeysOnly(
  v.object({
    ignore_sys_message: v.boolean(),
    jq_function_default_timeout: timeoutMs,
    /** Deprecated in 5.8 and hidden; taken and ignored. */
    jq_implementation_module: v.optional(v.picklist(['jq_nif', 'jq_port'])),
  }),
)

export function ruleEngineSettings(engine: RuleEngine, store: SettingsStore): Settings<typeof RuleEngineSettingsInput> {
  return {
    schema: RuleEngineSettingsInput,
    current: () => ({ ignore_sys_message: engine.ignoreSysMessage, jq_function_default_timeout: engine.jqTimeoutMs }),
    store,
    key: 'rule_engine',
    apply: (settings) => {
      engine.ignoreSysMessage = settings.ignore_sys_message
      engine.jqTimeoutMs = settings.jq_function_default_timeout
    },
  }
}
