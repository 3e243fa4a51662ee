// The rule form's values: a rule as the form edits it (its outputs as drafts of text fields), read
// from a saved rule, checked field by field, and turned back into the arguments of rule.create and
// rule.update. No React: tests/feature-rules-form.test.ts holds it.
import { ACTION_ID, flagValue, isFlagValue, isQosValue, qosValue, RULE_ID } from '../../../commands/rules.ts'
import { fitsTopicLength, isTopicName } from '../../../commands/clients.ts'
import { REPUBLISH_MQTT_PROPERTIES, type RepublishArgs, type RuleInfo, type RuleOutput } from '../../../contract/rules.ts'
import { randomId } from '../../testclient/connectionSettings.ts'

export type MqttPropertyName = (typeof REPUBLISH_MQTT_PROPERTIES)[number]

export interface RepublishDraft {
  kind: 'republish'
  key: string
  topic: string
  payload: string
  /** 0, 1, 2 or a template. */
  qos: string
  /** true, false or a template. */
  retain: string
  mqttProperties: Record<MqttPropertyName, string>
  userProperties: string
  /** true, false or a template. */
  directDispatch: string
}
export interface ConsoleDraft {
  kind: 'console'
  key: string
}
export interface ActionDraft {
  kind: 'action'
  key: string
  /** `type:name`. */
  id: string
}
/** An output this form does not know field by field (`{function: "mod:func", args}`): edited as JSON. */
export interface CustomDraft {
  kind: 'custom'
  key: string
  json: string
}
export type OutputDraft = RepublishDraft | ConsoleDraft | ActionDraft | CustomDraft
export type OutputKind = OutputDraft['kind']

export interface RuleFormValues {
  id: string
  name: string
  description: string
  enable: boolean
  sql: string
  outputs: OutputDraft[]
}

/** What a form field says is wrong: an i18n key, by field (`id`, `sql`, `outputs.2.topic`). */
export type RuleFormErrors = Record<string, string>

let nextKey = 1
/** A key React tells the output rows apart by while they are added, removed and moved. */
const outputKey = () => `output-${nextKey++}`

/** EMQX's dashboard starts a rule as `rule_` and four random characters, reading every message. */
/**
 * A new rule as EMQX's dashboard starts one; from an action's or a source's row (`?action=` /
 * `?source=`), sending to that action or reading that source's `$bridges/<id>`.
 */
export function newRuleValues(from: { action?: string; source?: string } = {}): RuleFormValues {
  const topic = from.source ? `$bridges/${from.source}` : 't/#'
  const outputs: OutputDraft[] = from.action ? [{ kind: 'action', key: outputKey(), id: from.action }] : []
  return { id: `rule_${randomId(4)}`, name: '', description: '', enable: true, sql: `SELECT\n  *\nFROM\n  "${topic}"`, outputs }
}

const text = (value: unknown, fallback = ''): string => (value === undefined || value === null ? fallback : typeof value === 'string' ? value : JSON.stringify(value))

export function emptyMqttProperties(): Record<MqttPropertyName, string> {
  return Object.fromEntries(REPUBLISH_MQTT_PROPERTIES.map((name) => [name, ''])) as Record<MqttPropertyName, string>
}

/** A new output of a kind, as EMQX's dashboard starts it. */
export function newOutput(kind: OutputKind): OutputDraft {
  const key = outputKey()
  switch (kind) {
    case 'republish':
      return { kind, key, topic: '', payload: '', qos: '0', retain: 'false', mqttProperties: emptyMqttProperties(), userProperties: '', directDispatch: 'false' }
    case 'console':
      return { kind, key }
    case 'action':
      return { kind, key, id: '' }
    case 'custom':
      return { kind, key, json: '{\n  "function": "",\n  "args": {}\n}' }
  }
}

/** One saved output as the form edits it; a republish left at EMQX's defaults shows them. */
export function outputDraft(output: RuleOutput): OutputDraft {
  const key = outputKey()
  if (typeof output === 'string') return { kind: 'action', key, id: output }
  if (output.function === 'console') return { kind: 'console', key }
  if (output.function === 'republish' && output.args && typeof output.args.topic === 'string') {
    const args = output.args as RepublishArgs
    const properties = emptyMqttProperties()
    for (const [name, value] of Object.entries(args.mqtt_properties ?? {})) if (name in properties) properties[name as MqttPropertyName] = text(value)
    return {
      kind: 'republish',
      key,
      topic: args.topic,
      payload: args.payload ?? '${payload}',
      qos: text(args.qos, '${qos}'),
      retain: text(args.retain, '${retain}'),
      mqttProperties: properties,
      userProperties: args.user_properties ?? '${user_properties}',
      directDispatch: text(args.direct_dispatch, 'false'),
    }
  }
  return { kind: 'custom', key, json: JSON.stringify(output, null, 2) }
}

export function ruleFormValues(rule: RuleInfo): RuleFormValues {
  return { id: rule.id, name: rule.name, description: rule.description, enable: rule.enable, sql: rule.sql, outputs: rule.actions.map(outputDraft) }
}

function parseCustom(json: string): RuleOutput | undefined {
  try {
    const parsed: unknown = JSON.parse(json)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && typeof (parsed as { function?: unknown }).function === 'string' && (parsed as { function: string }).function !== '')
      return parsed as RuleOutput
  } catch {
    // Reported as not JSON below.
  }
  return undefined
}

/** The output EMQX stores for a draft (the draft is valid). */
export function ruleOutput(draft: OutputDraft): RuleOutput {
  switch (draft.kind) {
    case 'action':
      return draft.id.trim()
    case 'console':
      return { function: 'console' }
    case 'custom':
      return parseCustom(draft.json) ?? { function: '' }
    case 'republish': {
      const mqtt_properties = Object.fromEntries(Object.entries(draft.mqttProperties).filter(([, value]) => value.trim() !== ''))
      return {
        function: 'republish',
        args: {
          topic: draft.topic.trim(),
          qos: qosValue(draft.qos),
          retain: flagValue(draft.retain.trim()),
          payload: draft.payload,
          mqtt_properties,
          user_properties: draft.userProperties.trim(),
          direct_dispatch: flagValue(draft.directDispatch.trim()),
        },
      }
    }
  }
}

/** The errors of one output, by field name. */
function outputErrors(draft: OutputDraft): Record<string, string> {
  const errors: Record<string, string> = {}
  if (draft.kind === 'republish') {
    const topic = draft.topic.trim()
    if (topic === '') errors.topic = 'err.topicRequired'
    else if (!fitsTopicLength(topic)) errors.topic = 'err.topicLength'
    else if (!isTopicName(topic)) errors.topic = 'err.topicWildcard'
    if (!isQosValue(draft.qos)) errors.qos = 'rules.err.qos'
    if (!isFlagValue(draft.retain.trim())) errors.retain = 'rules.err.flag'
    if (!isFlagValue(draft.directDispatch.trim())) errors.directDispatch = 'rules.err.flag'
  } else if (draft.kind === 'action') {
    if (draft.id.trim() === '') errors.id = 'rules.err.actionRequired'
    else if (!ACTION_ID.test(draft.id.trim())) errors.id = 'rules.err.actions'
  } else if (draft.kind === 'custom' && !parseCustom(draft.json)) errors.json = 'rules.err.customOutput'
  return errors
}

/**
 * Every field's error, keyed `id`, `sql` or `outputs.<index>.<field>`; empty when the form can be
 * saved. A saved rule's id is not checked: EMQX's API takes ids the dashboard's form would not.
 */
export function ruleFormErrors(values: RuleFormValues, editing = false): RuleFormErrors {
  const errors: RuleFormErrors = {}
  if (editing) {
    // The id is fixed.
  } else if (values.id.trim() === '') errors.id = 'rules.err.idRequired'
  else if (!RULE_ID.test(values.id.trim())) errors.id = 'rules.err.id'
  if (values.sql.trim() === '') errors.sql = 'rules.err.sqlRequired'
  values.outputs.forEach((draft, index) => {
    for (const [field, key] of Object.entries(outputErrors(draft))) errors[`outputs.${index}.${field}`] = key
  })
  return errors
}

/** The raw arguments of rule.create. */
export function createArgs(values: RuleFormValues): Record<string, unknown> {
  return { id: values.id.trim(), name: values.name, description: values.description, enable: values.enable, sql: values.sql, outputs: values.outputs.map(ruleOutput) }
}

/** The raw arguments of rule.update: every field in `body`, so a name or note emptied on the form is emptied. */
export function updateArgs(values: RuleFormValues, initial?: RuleFormValues): Record<string, unknown> {
  const body = ruleBody(values)
  if (!initial) return { id: values.id.trim(), body }
  // Only what the form changed: PUT merges, so a switch flipped elsewhere meanwhile is not undone.
  const before = ruleBody(initial)
  const changed = Object.fromEntries(Object.entries(body).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key as keyof typeof before])))
  return { id: values.id.trim(), body: changed }
}

function ruleBody({ name, description, enable, sql, outputs }: RuleFormValues) {
  return { name, description, enable, sql, actions: outputs.map(ruleOutput) }
}

/** The values without the row keys: what says whether the form holds unsaved edits. */
export function comparable(values: RuleFormValues): string {
  return JSON.stringify({ ...values, outputs: values.outputs.map(ruleOutputForCompare) })
}

function ruleOutputForCompare(draft: OutputDraft): unknown {
  const { key: _key, ...rest } = draft
  return rest
}

/** Moves the output at `from` to `to` (both in range). */
export function moveOutput(outputs: readonly OutputDraft[], from: number, to: number): OutputDraft[] {
  const next = [...outputs]
  const [moved] = next.splice(from, 1)
  next.splice(to, 0, moved)
  return next
}
