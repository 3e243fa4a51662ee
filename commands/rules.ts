// Rules of the rule engine: create one from its SQL in one line (outputs as arguments: a republish
// topic with its payload, QoS and retain, console, action ids, or the whole list as JSON), change,
// delete, enable, disable, and reset its metrics. Testing a SQL statement (rule.test) and tapping live
// traffic (rule.tap) are commands of their own files.
import * as v from 'valibot'
import { REPUBLISH_MQTT_PROPERTIES, RuleBodySchema, RuleOutputSchema, type RepublishArgs, type RuleBody, type RuleOutput } from '../contract/rules.ts'
import { givenArgs, keepsCurrent } from './args.ts'
import { fitsTopicLength, isTopicName } from './clients.ts'
import { defineCommand, type Completer } from './define.ts'
import type { Api } from '../src/api/index.ts'
import { booleanFilter, defineRead, pagedTable, pageArgs, textFilter } from './format/read.ts'
import type { RuleInfo } from '../src/api/rules.ts'

/** SPEC 5's id: a letter or digit, then letters, digits, '-' and '_' (so no Chinese characters). */
export const RULE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/
/** An action's id as EMQX names it in a rule: `type:name` (`http:my_webhook`). */
export const ACTION_ID = /^[A-Za-z0-9][A-Za-z0-9_]*:[A-Za-z0-9][A-Za-z0-9_.-]*$/
const TEMPLATE = /\$\{[^}]+\}/

/** Rule ids containing what was typed; `enable` narrows them to enabled (or disabled) rules. */
async function ruleIds(api: Api, query: string, signal: AbortSignal, enable?: boolean): Promise<string[]> {
  const typed = query.trim()
  const page = await api.rules.list({ page: 1, limit: 100, ...(typed ? { like_id: typed } : {}), ...(enable === undefined ? {} : { enable }) }, signal)
  return page.data.map((rule) => rule.id).filter((id) => id.includes(typed))
}

export const completeRuleId: Completer = (api, query, signal) => ruleIds(api, query, signal)
const completeEnabledRule: Completer = (api, query, signal) => ruleIds(api, query, signal, true)
const completeDisabledRule: Completer = (api, query, signal) => ruleIds(api, query, signal, false)

/** True for QoS 0, 1, 2 or a `${field}` template (EMQX's republish takes either). */
export const isQosValue = (text: string) => /^[0-2]$/.test(text.trim()) || TEMPLATE.test(text)
/** True for true, false or a `${field}` template. */
export const isFlagValue = (text: string) => text === 'true' || text === 'false' || TEMPLATE.test(text)

/** A QoS as republish stores it: a number, or the template as written. */
export const qosValue = (text: string): number | string => (/^[0-2]$/.test(text.trim()) ? Number(text.trim()) : text)
/** A flag as republish stores it: a boolean, or the template as written. */
export const flagValue = (text: string): boolean | string => (text === 'true' ? true : text === 'false' ? false : text)

/** A saved rule's id: EMQX itself takes any non-empty id, so one made through its API is reached too. */
const ruleIdArg = () => v.pipe(v.string(), v.title('rules.field.id'), v.minLength(1, 'rules.err.idRequired'))
/** A new rule's id, as EMQX's dashboard checks it (SPEC 5). */
const newRuleIdArg = () => v.pipe(ruleIdArg(), v.regex(RULE_ID, 'rules.err.id'), v.description('rules.hint.id'))
const sqlArg = () => v.pipe(v.string(), v.title('rules.field.sql'), v.description('rules.hint.sql'), v.check((sql) => sql.trim() !== '', 'rules.err.sqlRequired'))
const nameArg = () => v.pipe(v.string(), v.title('rules.field.name'))
const descriptionArg = () => v.pipe(v.string(), v.title('rules.field.description'))
const enableArg = () => v.pipe(v.boolean('err.boolean'), v.title('rules.field.enable'))

/** The outputs' arguments, the same on create and update: every one optional. */
const outputEntries = {
  outputs: v.optional(
    v.pipe(v.array(RuleOutputSchema, 'rules.err.outputs'), v.title('rules.field.outputs'), v.description('rules.hint.outputs')),
  ),
  republish: v.optional(
    v.pipe(
      v.string(),
      v.title('rules.field.republish'),
      v.description('rules.hint.republish'),
      v.minLength(1, 'err.topicRequired'),
      v.check(fitsTopicLength, 'err.topicLength'),
      v.check(isTopicName, 'err.topicWildcard'),
    ),
  ),
  payload: v.optional(v.pipe(v.string(), v.title('rules.field.payload'), v.description('rules.hint.payload'))),
  qos: v.optional(v.pipe(v.string(), v.title('rules.field.qos'), v.description('rules.hint.qos'), v.check(isQosValue, 'rules.err.qos'))),
  retain: v.optional(v.pipe(v.string(), v.title('rules.field.retain'), v.description('rules.hint.flag'), v.check(isFlagValue, 'rules.err.flag'))),
  mqtt_properties: v.optional(
    v.pipe(
      v.record(v.string(), v.string()),
      v.title('rules.field.mqttProperties'),
      v.description('rules.hint.mqttProperties'),
      v.check((props) => Object.keys(props).every((name) => (REPUBLISH_MQTT_PROPERTIES as readonly string[]).includes(name)), 'rules.err.mqttProperties'),
    ),
  ),
  user_properties: v.optional(v.pipe(v.string(), v.title('rules.field.userProperties'), v.description('rules.hint.userProperties'))),
  direct_dispatch: v.optional(v.pipe(v.string(), v.title('rules.field.directDispatch'), v.description('rules.hint.flag'), v.check(isFlagValue, 'rules.err.flag'))),
  console: v.optional(v.pipe(v.boolean('err.boolean'), v.title('rules.field.console'), v.description('rules.hint.console'))),
  actions: v.optional(
    v.pipe(
      v.string(),
      v.title('rules.field.actions'),
      v.description('rules.hint.actions'),
      v.check((text) => actionIds(text).every((id) => ACTION_ID.test(id)), 'rules.err.actions'),
    ),
  ),
}

type OutputArgs = { [K in keyof typeof outputEntries]?: v.InferOutput<(typeof outputEntries)[K]> }

/** `http:a, mqtt:b` as its ids. */
export function actionIds(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((id) => id.trim())
    .filter((id) => id !== '')
}

/**
 * The rule's outputs the arguments give, in this order: the `outputs` JSON, then the republish,
 * console and action ids; undefined when no output argument was given (an update keeps the rule's).
 */
export function ruleOutputs(args: OutputArgs): RuleOutput[] | undefined {
  const { outputs, republish, payload, qos, retain, mqtt_properties, user_properties, direct_dispatch, console, actions } = args
  const list: RuleOutput[] = [...(outputs ?? [])]
  if (republish !== undefined) {
    const republishArgs: RepublishArgs = {
      topic: republish,
      ...(payload === undefined ? {} : { payload }),
      ...(qos === undefined ? {} : { qos: qosValue(qos) }),
      ...(retain === undefined ? {} : { retain: flagValue(retain) }),
      ...(mqtt_properties === undefined ? {} : { mqtt_properties }),
      ...(user_properties === undefined ? {} : { user_properties }),
      ...(direct_dispatch === undefined ? {} : { direct_dispatch: flagValue(direct_dispatch) }),
    }
    list.push({ function: 'republish', args: republishArgs })
  }
  if (console) list.push({ function: 'console' })
  if (actions !== undefined) list.push(...actionIds(actions))
  const given = outputs !== undefined || republish !== undefined || console !== undefined || actions !== undefined
  return given ? list : undefined
}

export const createRule = defineCommand({
  id: 'rule.create',
  title: 'cmd.rule.create',
  group: 'cmdGroup.rules',
  changes: ['rules'],
  args: v.object({
    sql: sqlArg(),
    id: v.optional(newRuleIdArg()),
    name: v.optional(nameArg()),
    description: v.optional(descriptionArg()),
    enable: v.optional(enableArg()),
    ...outputEntries,
  }),
  positional: ['sql'],
  aliases: ['new rule', 'add rule', 'rule engine', 'sql', '创建规则', '新建规则', '规则引擎'],
  run: (ctx, { sql, id, name, description, enable, ...outputs }) => {
    const body: RuleBody = { sql, ...givenArgs({ id, name, description, enable }), actions: ruleOutputs(outputs) ?? [] }
    return ctx.api.rules.create(body)
  },
  resultText: (rule) => ({ key: 'cmd.rule.created', values: { id: rule.id } }),
})

export const updateRule = defineCommand({
  id: 'rule.update',
  title: 'cmd.rule.update',
  group: 'cmdGroup.rules',
  changes: ['rules'],
  args: v.object({
    id: ruleIdArg(),
    sql: keepsCurrent(sqlArg()),
    name: keepsCurrent(nameArg()),
    description: keepsCurrent(descriptionArg()),
    enable: keepsCurrent(enableArg()),
    ...outputEntries,
    /** The rule's fields as EMQX's PUT body, for what an empty argument cannot say (a name cleared). */
    body: v.optional(v.pipe(v.partial(v.omit(RuleBodySchema, ['id', 'metadata'])), v.title('rules.field.body'), v.description('rules.hint.body'))),
  }),
  positional: ['id'],
  aliases: ['edit rule', 'change rule', '编辑规则', '修改规则'],
  complete: { id: completeRuleId },
  describe: ({ id }) => ({ key: 'cmd.rule.updateDescribe', values: { id } }),
  // PUT merges the keys it is given over the stored rule: what is left out stays; outputs given replace the rule's.
  run: (ctx, { id, sql, name, description, enable, body, ...outputs }) => {
    const actions = ruleOutputs(outputs)
    return ctx.api.rules.update(id, { ...body, ...givenArgs({ sql, name, description, enable }), ...(actions ? { actions } : {}) })
  },
})

/** A command on one rule by its id. */
function onRule(
  id: string,
  options: { danger?: boolean; confirm?: boolean; aliases: string[]; complete?: Completer },
  run: (api: Api, rule: string) => Promise<unknown>,
) {
  const name = id.split('.')[1]
  return defineCommand({
    id,
    title: `cmd.rule.${name}`,
    group: 'cmdGroup.rules',
    changes: ['rules'],
    args: v.object({ id: ruleIdArg() }),
    positional: ['id'],
    ...(options.danger ? { danger: true } : {}),
    ...(options.confirm ? { confirm: true } : {}),
    aliases: options.aliases,
    complete: { id: options.complete ?? completeRuleId },
    describe: ({ id: rule }) => ({ key: `cmd.rule.${name}Describe`, values: { id: rule } }),
    run: (ctx, { id: rule }) => run(ctx.api, rule),
  })
}

export const deleteRule = onRule('rule.delete', { danger: true, aliases: ['remove rule', '删除规则'] }, (api, id) => api.rules.delete(id))
export const enableRule = onRule('rule.enable', { aliases: ['start rule', 'turn on rule', '启用规则'], complete: completeDisabledRule }, (api, id) =>
  api.rules.update(id, { enable: true }),
)
export const disableRule = onRule('rule.disable', { aliases: ['stop rule', 'turn off rule', '禁用规则', '停用规则'], complete: completeEnabledRule }, (api, id) =>
  api.rules.update(id, { enable: false }),
)
export const resetRuleMetrics = onRule('rule.resetMetrics', { confirm: true, aliases: ['clear rule metrics', 'reset rule counters', '重置规则统计', '重置规则指标'] }, (api, id) =>
  api.rules.resetMetrics(id),
)

/** The rules with `GET /rules`' filters (`rules.list enable=true like_from=t/`). */
export const listRules = defineRead({
  id: 'rules.list',
  title: 'cmd.rules.list',
  group: 'cmdGroup.rules',
  aliases: ['rules', '规则列表'],
  args: v.object({
    enable: booleanFilter('enable'),
    from: textFilter('from'),
    like_id: textFilter('like_id'),
    like_from: textFilter('like_from'),
    like_description: textFilter('like_description'),
    ...pageArgs(),
  }),
  run: (ctx, args) => ctx.api.rules.list(givenArgs(args)),
  table: pagedTable<RuleInfo>([
    ['id', (r) => r.id],
    ['name', (r) => r.name],
    ['enable', (r) => r.enable],
    ['from', (r) => r.from.join(',')],
    ['actions', (r) => r.actions.map((a) => (typeof a === 'string' ? a : a.function)).join(',')],
    ['description', (r) => r.description],
  ]),
})

export const ruleCommands = [listRules, createRule, updateRule, deleteRule, enableRule, disableRule, resetRuleMetrics]
