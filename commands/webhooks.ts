// Webhooks, as EMQX's simplified screen makes them: one command creates the HTTP connector, the HTTP
// action and the rule (all `<name>_WH_D`) together and removes what it made when a later part fails;
// update, enable, disable and delete act on all three; webhooks.list reads them joined.
import * as v from 'valibot'
import { keepsCurrent, keyValuesArg } from './args.ts'
import { CommandError, defineCommand, type Completer } from './define.ts'
import { defineRead, rowsTable } from './format/read.ts'
import {
  actionConfig,
  configOf,
  connectorConfig,
  DEFAULT_WEBHOOK_HEADERS,
  getWebhook,
  hasNoHostTemplate,
  hasNoQuote,
  isHttpUrl,
  isWebhookEvent,
  isWebhookName,
  listWebhooks,
  splitEvents,
  splitTopics,
  triggerSql,
  WEBHOOK_METHODS,
  WEBHOOK_TYPE,
  webhookId,
  webhookResourceId,
  type WebhookSettings,
  type WebhookTrigger,
} from './webhookModel.ts'
import { ApiError } from '../contract/api-error.ts'
import { isTopicFilter } from './clients.ts'
import type { Api } from '../src/api/index.ts'

const completeWebhook =
  (enable?: boolean): Completer =>
  async (api, query, signal) =>
    (await listWebhooks(api, signal))
      .filter((webhook) => enable === undefined || webhook.enable === enable)
      .map((webhook) => webhook.name)
      .filter((name) => name.includes(query.trim()))

const nameArg = () => v.pipe(v.string(), v.title('webhook.field.name'), v.description('webhook.hint.name'), v.minLength(1, 'webhook.err.nameRequired'))
const newNameArg = () => v.pipe(nameArg(), v.check(isWebhookName, 'webhook.err.name'))
const urlArg = () =>
  v.pipe(
    v.string(),
    v.title('webhook.field.url'),
    v.description('webhook.hint.url'),
    v.check(isHttpUrl, 'webhook.err.url'),
    v.check(hasNoHostTemplate, 'webhook.err.urlTemplate'),
  )
const topicsArg = () =>
  v.pipe(
    v.string(),
    v.title('webhook.field.topics'),
    v.description('webhook.hint.topics'),
    v.check((text) => splitTopics(text).every(isTopicFilter), 'err.topicFilter'),
    v.check((text) => splitTopics(text).every(hasNoQuote), 'webhook.err.topicQuote'),
  )
const eventsArg = () =>
  v.pipe(v.string(), v.title('webhook.field.events'), v.description('webhook.hint.events'), v.check((text) => splitEvents(text).every(isWebhookEvent), 'webhook.err.events'))
const methodArg = () => v.pipe(v.picklist(WEBHOOK_METHODS, 'err.oneOf'), v.title('webhook.field.method'))
const headersArg = () => keyValuesArg('webhook.field.headers', { description: 'webhook.hint.headers' })
const bodyArg = () => v.pipe(v.string(), v.title('webhook.field.body'), v.description('webhook.hint.body'))
const descriptionArg = () => v.pipe(v.string(), v.title('webhook.field.description'))
const jsonArg = (title: string, hint: string) => v.optional(v.pipe(v.record(v.string(), v.unknown(), 'err.json'), v.title(title), v.description(hint)))

/** The arguments that become connector and action settings, the same on create and update. */
const furtherSettings = {
  connector: jsonArg('webhook.field.connector', 'webhook.hint.connector'),
  action: jsonArg('webhook.field.action', 'webhook.hint.action'),
}

/** The trigger the arguments give; a part left out is `current`'s (nothing on create). */
function triggerFrom(args: { topics?: string; events?: string }, current: WebhookTrigger = { topics: [], events: [] }): WebhookTrigger {
  const trigger = {
    topics: args.topics === undefined ? current.topics : splitTopics(args.topics),
    events: args.events === undefined ? current.events : splitEvents(args.events),
  }
  if (trigger.topics.length + trigger.events.length === 0) throw new CommandError({ key: 'webhook.err.trigger' })
  return trigger
}

/** The rule's note; a blank one (given, so not kept) clears it. */
const noteOf = (description: string | undefined) => (description === undefined ? {} : { description: description.trim() })

/** Runs `step`; when it fails, `undo` each part made so far (the latest first) and throw the step's error. */
async function orUndo<T>(step: () => Promise<T>, undo: (() => Promise<unknown>)[]): Promise<T> {
  try {
    return await step()
  } catch (error) {
    for (const part of [...undo].reverse()) await part().catch(() => undefined)
    throw error
  }
}

export const createWebhook = defineCommand({
  id: 'webhook.create',
  title: 'cmd.webhook.create',
  group: 'cmdGroup.webhooks',
  changes: ['connectors', 'rules'],
  args: v.object({
    name: newNameArg(),
    url: urlArg(),
    topics: v.optional(topicsArg()),
    events: v.optional(eventsArg()),
    method: v.optional(methodArg(), 'post'),
    headers: v.optional(headersArg()),
    body: v.optional(bodyArg()),
    description: v.optional(descriptionArg()),
    ...furtherSettings,
  }),
  positional: ['name', 'url'],
  aliases: ['new webhook', 'add webhook', 'http webhook', '创建 Webhook', '新建 Webhook'],
  describe: ({ name }) => ({ key: 'cmd.webhook.createDescribe', values: { name } }),
  run: async (ctx, { name, url, topics, events, method, headers, body, description, connector, action }) => {
    const sql = triggerSql(triggerFrom({ topics, events }))
    const id = webhookId(name)
    const settings: WebhookSettings = { url, method, headers: headers ?? { ...DEFAULT_WEBHOOK_HEADERS }, body, connector, action }
    const api = ctx.api.connectors
    await api.create({ ...connectorConfig({}, settings), type: WEBHOOK_TYPE, name: id })
    const undo: (() => Promise<unknown>)[] = [() => api.delete(webhookResourceId(name))]
    await orUndo(() => api.actions.create({ ...actionConfig({}, id, settings), type: WEBHOOK_TYPE, name: id }), undo)
    undo.push(() => api.actions.delete(webhookResourceId(name)))
    await orUndo(() => ctx.api.rules.create({ id, sql, actions: [webhookResourceId(name)], ...noteOf(description) }), undo)
    return getWebhook(ctx.api, name)
  },
  resultText: (webhook) => ({ key: 'cmd.webhook.created', values: { name: webhook.name } }),
})

export const updateWebhook = defineCommand({
  id: 'webhook.update',
  title: 'cmd.webhook.update',
  group: 'cmdGroup.webhooks',
  changes: ['connectors', 'rules'],
  args: v.object({
    name: nameArg(),
    url: keepsCurrent(urlArg()),
    topics: keepsCurrent(topicsArg()),
    events: keepsCurrent(eventsArg()),
    method: keepsCurrent(methodArg()),
    headers: keepsCurrent(headersArg()),
    body: keepsCurrent(bodyArg()),
    description: keepsCurrent(descriptionArg()),
    ...furtherSettings,
  }),
  positional: ['name'],
  aliases: ['edit webhook', 'change webhook', '编辑 Webhook', '修改 Webhook'],
  complete: { name: completeWebhook() },
  describe: ({ name }) => ({ key: 'cmd.webhook.updateDescribe', values: { name } }),
  // Each part is PUT whole (EMQX replaces its config); a part refused puts back the parts changed before it.
  run: async (ctx, { name, url, topics, events, method, headers, body, description, connector, action }) => {
    const current = await getWebhook(ctx.api, name)
    const settings: WebhookSettings = { url, method, headers, body, connector, action }
    const given = topics === undefined && events === undefined ? undefined : triggerFrom({ topics, events }, current.trigger)
    // The same trigger keeps the rule's SQL as it is (a WHERE or fields written by hand, or by EMQX's own screen).
    const trigger = given && triggerSql(given) !== triggerSql(current.trigger) ? given : undefined
    const id = webhookResourceId(name)
    const api = ctx.api.connectors
    const oldConnector = configOf(current.connector)
    const oldAction = configOf(current.action)
    await api.update(id, connectorConfig(oldConnector, settings))
    const undo: (() => Promise<unknown>)[] = [() => api.update(id, oldConnector)]
    await orUndo(() => api.actions.update(id, actionConfig(oldAction, current.action.connector, settings)), undo)
    undo.push(() => api.actions.update(id, oldAction))
    const rule = { ...(trigger ? { sql: triggerSql(trigger) } : {}), ...noteOf(description) }
    if (Object.keys(rule).length > 0) await orUndo(() => ctx.api.rules.update(current.id, rule), undo)
    return getWebhook(ctx.api, name)
  },
})

/** A part already gone (a webhook half removed by hand) is no reason to stop removing the rest. */
const unlessGone = (request: Promise<unknown>) =>
  request.catch((error: unknown) => {
    if (!(error instanceof ApiError && error.status === 404)) throw error
  })

/** Enables or disables all three: the connector first when enabling, the rule first when disabling. */
async function setEnabled(api: Api, name: string, enable: boolean): Promise<void> {
  const id = webhookResourceId(name)
  const steps = [() => api.connectors.enable(id, enable), () => api.connectors.actions.enable(id, enable), () => api.rules.update(webhookId(name), { enable })]
  for (const step of enable ? steps : steps.reverse()) await step()
}

function onWebhook(id: 'webhook.delete' | 'webhook.enable' | 'webhook.disable', aliases: string[], run: (api: Api, name: string) => Promise<unknown>) {
  const verb = id.split('.')[1]
  return defineCommand({
    id,
    title: `cmd.webhook.${verb}`,
    group: 'cmdGroup.webhooks',
    changes: ['connectors', 'rules'],
    args: v.object({ name: nameArg() }),
    positional: ['name'],
    ...(verb === 'enable' ? {} : { danger: true }),
    aliases,
    complete: { name: completeWebhook(verb === 'enable' ? false : verb === 'disable' ? true : undefined) },
    describe: ({ name }) => ({ key: `cmd.webhook.${verb}Describe`, values: { name } }),
    run: (ctx, { name }) => run(ctx.api, name),
  })
}

export const deleteWebhook = onWebhook('webhook.delete', ['remove webhook', '删除 Webhook'], async (api, name) => {
  const id = webhookResourceId(name)
  await unlessGone(api.rules.delete(webhookId(name)))
  await unlessGone(api.connectors.actions.delete(id))
  await unlessGone(api.connectors.delete(id))
})
export const enableWebhook = onWebhook('webhook.enable', ['start webhook', 'turn on webhook', '启用 Webhook'], (api, name) => setEnabled(api, name, true))
export const disableWebhook = onWebhook('webhook.disable', ['stop webhook', 'turn off webhook', '禁用 Webhook', '停用 Webhook'], (api, name) => setEnabled(api, name, false))

/** One webhook as webhooks.list answers it. */
export interface WebhookRow {
  name: string
  enable: boolean
  status: string
  url: string
  method: string
  topics: string[]
  events: string[]
}

export const listWebhooksCommand = defineRead({
  id: 'webhooks.list',
  title: 'cmd.webhook.list',
  group: 'cmdGroup.webhooks',
  args: v.object({}),
  aliases: ['webhooks', 'show webhooks', 'Webhook 列表'],
  run: async (ctx): Promise<WebhookRow[]> =>
    (await listWebhooks(ctx.api)).map((webhook) => ({
      name: webhook.name,
      enable: webhook.enable,
      status: webhook.action.status,
      url: webhook.url,
      method: webhook.method,
      topics: webhook.trigger.topics,
      events: webhook.trigger.events,
    })),
  table: rowsTable<WebhookRow>([
    ['name', (row) => row.name],
    ['status', (row) => row.status],
    ['enable', (row) => row.enable],
    ['method', (row) => row.method],
    ['url', (row) => row.url],
    ['trigger', (row) => [...row.topics, ...row.events].join(',')],
  ]),
})

export const webhookCommands = [createWebhook, updateWebhook, deleteWebhook, enableWebhook, disableWebhook, listWebhooksCommand]
