// A rule's raw config checked as EMQX 5.8's schema checks it (emqx_rule_engine_schema "rules", then
// emqx_rule_actions:parse_action): name, sql (required), actions (action ids `type:name`, republish
// with its arguments, console), enable, description, metadata. A refusal is the 400 EMQX answers,
// "Bad Arguments: " and the error term.
import { REPUBLISH_MQTT_PROPERTIES } from '../../../contract/rules.ts'
import { ApiError } from '../../http/errors.ts'
import {
  parseActionId,
  republishArgsWithDefaults,
  republishTemplates,
  type ParsedOutput,
  type RepublishArgsConfig,
} from '../../rules/engine/index.ts'
import { atom, badArguments, chars, validationError } from '../../rules/engine/errors.ts'

/** The keys of a rule's raw config (what PUT merges and the store keeps). */
export const RULE_CONFIG_KEYS = ['name', 'sql', 'actions', 'enable', 'description', 'metadata'] as const

/** Keys a request may carry that EMQX drops (filter_out_request_body). */
export const READ_ONLY_KEYS = ['id', 'status', 'node_status', 'node_metrics', 'metrics', 'node'] as const

export interface CheckedRule {
  name: string
  sql: string
  enable: boolean
  description: string
  outputs: ParsedOutput[]
}

const REPUBLISH_KEYS = ['topic', 'qos', 'retain', 'payload', 'mqtt_properties', 'user_properties', 'direct_dispatch']

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function refuse(path: string, reason: unknown, value?: unknown, extra?: Record<string, unknown>): never {
  throw new ApiError(400, 'BAD_REQUEST', badArguments(validationError({ path, reason, value, extra })))
}

function typeError(path: string, expected: string, value: unknown): never {
  return refuse(path, chars(`Expected type: ${expected}`), value, { expected_type: chars(expected) })
}

function checkRepublish(path: string, args: unknown): RepublishArgsConfig {
  if (args === undefined) return refuse(`${path}.topic`, atom('required_field'))
  if (!isObject(args)) return typeError(path, 'map()', args)
  const unknown = Object.keys(args).filter((key) => !REPUBLISH_KEYS.includes(key))
  if (unknown.length > 0) refuse(path, atom('unknown_fields'), undefined, { unknown: chars(unknown.join(',')) })
  if (args.topic === undefined) refuse(`${path}.topic`, atom('required_field'))
  if (typeof args.topic !== 'string') typeError(`${path}.topic`, 'template()', args.topic)
  const { qos, retain, payload, mqtt_properties: props, user_properties: user, direct_dispatch: direct } = args
  if (qos !== undefined && typeof qos !== 'string' && !(qos === 0 || qos === 1 || qos === 2)) typeError(`${path}.qos`, 'qos() | template()', qos)
  if (retain !== undefined && typeof retain !== 'string' && typeof retain !== 'boolean') typeError(`${path}.retain`, 'boolean() | template()', retain)
  if (payload !== undefined && typeof payload !== 'string') typeError(`${path}.payload`, 'template()', payload)
  if (user !== undefined && typeof user !== 'string') typeError(`${path}.user_properties`, 'template()', user)
  if (direct !== undefined && typeof direct !== 'string' && typeof direct !== 'boolean') typeError(`${path}.direct_dispatch`, 'boolean() | template()', direct)
  if (props !== undefined) {
    if (!isObject(props)) typeError(`${path}.mqtt_properties`, 'map()', props)
    for (const [key, value] of Object.entries(props)) {
      if (!(REPUBLISH_MQTT_PROPERTIES as readonly string[]).includes(key)) refuse(`${path}.mqtt_properties`, atom('unknown_fields'), undefined, { unknown: chars(key) })
      if (typeof value !== 'string') typeError(`${path}.mqtt_properties.${key}`, 'binary()', value)
    }
  }
  return republishArgsWithDefaults({
    topic: args.topic as string,
    qos: qos as RepublishArgsConfig['qos'] | undefined,
    retain: retain as RepublishArgsConfig['retain'] | undefined,
    payload: payload as string | undefined,
    mqtt_properties: props as Record<string, string> | undefined,
    user_properties: user as string | undefined,
    direct_dispatch: direct as RepublishArgsConfig['direct_dispatch'] | undefined,
  })
}

function checkOutput(path: string, raw: unknown): ParsedOutput {
  if (typeof raw === 'string') {
    const parsed = parseActionId(raw)
    if (!parsed) return refuse(path, `should be of pattern {type}:{name}, but got: ${raw}`)
    if (!/^[0-9a-zA-Z][-0-9a-zA-Z_]*$/.test(parsed.name)) {
      refuse(
        path,
        'Invalid name format. The name must begin with a letter or number (0-9, a-z, A-Z) and can only include underscores and hyphens as non-initial characters. Got: ' +
          parsed.name,
      )
    }
    return { kind: 'action', ...parsed }
  }
  if (!isObject(raw) || typeof raw.function !== 'string') return refuse(path, 'unknown action type', raw)
  if (raw.function === 'console') return { kind: 'console' }
  if (raw.function === 'republish') {
    const args = checkRepublish(`${path}.args`, raw.args)
    return { kind: 'republish', args, templates: republishTemplates(args) }
  }
  // A user-provided `module:function`: this server has no such modules.
  return refuse(path, atom(raw.function.includes(':') ? 'unknown_action_function' : 'action_function_not_supported'), raw.function)
}

/** Checks a rule's raw config; the SQL itself is compiled by the engine. Throws the 400 EMQX answers. */
export function checkRuleConfig(id: string, config: Record<string, unknown>): CheckedRule {
  const path = `rule_engine.rules.${id}`
  const unknown = Object.keys(config).filter((key) => !(RULE_CONFIG_KEYS as readonly string[]).includes(key))
  if (unknown.length > 0) refuse(path, atom('unknown_fields'), undefined, { unknown: chars(unknown.join(',')) })
  const { name = '', sql, actions = [], enable = true, description = '', metadata } = config
  if (typeof name !== 'string') typeError(`${path}.name`, 'binary()', name)
  if (sql === undefined) refuse(`${path}.sql`, atom('required_field'))
  if (typeof sql !== 'string') typeError(`${path}.sql`, 'binary()', sql)
  if (!Array.isArray(actions)) typeError(`${path}.actions`, 'array()', actions)
  if (typeof enable !== 'boolean') typeError(`${path}.enable`, 'boolean()', enable)
  if (typeof description !== 'string') typeError(`${path}.description`, 'binary()', description)
  if (metadata !== undefined && !isObject(metadata)) typeError(`${path}.metadata`, 'map()', metadata)
  const outputs = (actions as unknown[]).map((raw, i) => checkOutput(`${path}.actions.${i + 1}`, raw))
  return { name: name as string, sql: sql as string, enable: enable as boolean, description: description as string, outputs }
}
