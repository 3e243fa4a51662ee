// A webhook as EMQX's dashboard makes one: an HTTP connector, an HTTP action on it and a rule sending
// to the action, all three named `<name>_WH_D`. This file reads them back as one (joined as the
// official dashboard's useWebhookUtils does), turns a trigger into the rule's SQL and back, and
// shapes the bodies the webhook commands send. No React and no DOM.
import type { RuleInfo } from '../contract/rules.ts'
import { resourceId, type Bridge, type Connector } from '../contract/connectors.ts'
import { isTopicFilter } from './clients.ts'
import type { Api } from '../src/api/index.ts'

/** The suffix the dashboard gives the connector, the action and the rule of a webhook. */
export const WEBHOOK_SUFFIX = '_WH_D'
export const WEBHOOK_TYPE = 'http'
export const WEBHOOK_METHODS = ['post', 'put', 'get', 'delete'] as const
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number]

/** The connector's and action's name, and the rule's id. */
export const webhookId = (name: string): string => `${name}${WEBHOOK_SUFFIX}`
/** `http:<name>_WH_D`: the action (and the connector) by id. */
export const webhookResourceId = (name: string): string => resourceId(WEBHOOK_TYPE, webhookId(name))
const isWebhookId = (id: string) => id.endsWith(WEBHOOK_SUFFIX) && id.length > WEBHOOK_SUFFIX.length
const nameOf = (id: string) => id.slice(0, -WEBHOOK_SUFFIX.length)

/** The headers a new webhook sends when none are given (the dashboard keeps only content-type of EMQX's defaults). */
export const DEFAULT_WEBHOOK_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' }

// ---------------------------------------------------------------------------------------------
// Names, URLs, triggers

const NAME = /^[0-9a-zA-Z][-0-9a-zA-Z_]*$/
/** EMQX's resource name rule (letters, digits, '-' and '_', not first) and its length with the suffix. */
export const isWebhookName = (name: string): boolean => NAME.test(name) && webhookId(name).length < 255

const URL_AUTHORITY = /^https?:\/\/([^/?#]*)/i
/** An http or https URL with a host. */
export const isHttpUrl = (url: string): boolean => (URL_AUTHORITY.exec(url.trim())?.[1] ?? '') !== ''
/** SPEC 5: templates may be used in the path, not in the host or port. */
export const hasNoHostTemplate = (url: string): boolean => !(URL_AUTHORITY.exec(url.trim())?.[1] ?? '').includes('${')

/**
 * The event sources a webhook may be triggered by, as EMQX 5.8.9's /rule_events names them: every
 * `$events/…` but message publish (a topic is that) and the `$bridges/…` sources.
 */
export const WEBHOOK_EVENTS: readonly string[] = [
  '$events/message_delivered',
  '$events/message_acked',
  '$events/message_dropped',
  '$events/delivery_dropped',
  '$events/message_transformation_failed',
  '$events/client_connected',
  '$events/client_disconnected',
  '$events/client_connack',
  '$events/client_check_authz_complete',
  '$events/client_check_authn_complete',
  '$events/session_subscribed',
  '$events/session_unsubscribed',
  '$events/sys/alarm_activated',
  '$events/sys/alarm_deactivated',
  '$events/schema_validation_failed',
]
/** The events about a message, which the official screen offers beside the topics (its /message|delivery_dropped/). */
export const MESSAGE_EVENTS: readonly string[] = WEBHOOK_EVENTS.filter((event) => /message|delivery_dropped/.test(event))

/** What fires a webhook: messages published on these topic filters, and these event sources (`$events/…`). */
export interface WebhookTrigger {
  topics: string[]
  events: string[]
}

/** `t/1, t/#` (commas or new lines) as its topic filters. */
export function splitTopics(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((topic) => topic.trim())
    .filter((topic) => topic !== '')
}

/** `client_connected, alarm_activated, $events/message_delivered` as their `$events/…` topics; an unknown name is left as written (and refused). */
export function splitEvents(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((event) => event.trim())
    .filter((event) => event !== '')
    .map((event) => (event.startsWith('$') ? event : (WEBHOOK_EVENTS.find((topic) => topic.endsWith(`/${event}`)) ?? event)))
}

/** A topic the rule's SQL can hold: no quote of either kind (it is written inside them). */
export const hasNoQuote = (topic: string): boolean => !/["']/.test(topic)
export const isWebhookEvent = (event: string): boolean => WEBHOOK_EVENTS.includes(event)

/** `$events/client_connected` → `client.connected`, `$events/sys/alarm_activated` → `alarm.activated`: the `event` column's value. */
const eventColumn = (source: string) => (source.split('/').at(-1) ?? '').replace('_', '.')

/**
 * The rule's SQL: `SELECT * FROM "t/#", "$events/client_connected"`. Message events chosen beside
 * topics follow those topics, as on EMQX's screen (`WHERE topic =~ 't/#'`); the other events are let
 * through by their `event` first, since `or` stops at the first true side and they have no topic.
 */
export function triggerSql({ topics, events }: WebhookTrigger): string {
  const select = `SELECT * FROM ${[...topics, ...events].map((from) => `"${from}"`).join(', ')}`
  const scoped = topics.length > 0 && events.some((event) => MESSAGE_EVENTS.includes(event)) && events.every(isWebhookEvent)
  if (!scoped) return select
  const others = events.filter((event) => !MESSAGE_EVENTS.includes(event)).map((event) => `event = '${eventColumn(event)}'`)
  return `${select} WHERE ${[...others, ...topics.map((topic) => `topic =~ '${topic}'`)].join(' or ')}`
}

/** A rule's FROM list as a trigger: event sources (and `$bridges/…`, `$sources/…`) apart from topics. */
export function triggerOf(from: readonly string[]): WebhookTrigger {
  const isSource = (item: string) => item.startsWith('$events/') || item.startsWith('$bridges/') || item.startsWith('$sources/')
  return { topics: from.filter((item) => !isSource(item)), events: from.filter(isSource) }
}

// ---------------------------------------------------------------------------------------------
// Reading webhooks

/** One webhook: its three parts and what the list shows of them. */
export interface Webhook {
  /** The name without the suffix, as the operator gave it. */
  name: string
  /** `<name>_WH_D`: the connector's and action's name, the rule's id. */
  id: string
  /** The action's and the rule's enable flags both on (as the official list shows it). */
  enable: boolean
  url: string
  method: string
  trigger: WebhookTrigger
  connector: Connector
  action: Bridge
  rule: RuleInfo
}

function joined(connector: Connector, action: Bridge, rule: RuleInfo): Webhook {
  return {
    name: nameOf(action.name),
    id: action.name,
    enable: action.enable && rule.enable,
    url: typeof connector.url === 'string' ? connector.url : '',
    method: typeof action.parameters.method === 'string' ? action.parameters.method : 'post',
    trigger: triggerOf(rule.from),
    connector,
    action,
    rule,
  }
}

/** Every rule whose id has the webhook suffix, over all pages. */
async function webhookRules(api: Api, signal?: AbortSignal): Promise<RuleInfo[]> {
  const rules: RuleInfo[] = []
  for (let page = 1; ; page += 1) {
    const answer = await api.rules.list({ page, limit: 100, like_id: WEBHOOK_SUFFIX }, signal)
    rules.push(...answer.data)
    const more = answer.meta.hasnext ?? (answer.meta.count ?? 0) > page * 100
    if (!more || answer.data.length === 0) return rules.filter((rule) => isWebhookId(rule.id))
  }
}

/**
 * The webhooks there are: HTTP actions named `…_WH_D` used by the rule of the same id, with their
 * connector. A part missing (one made or removed by hand) leaves the webhook out, as EMQX's list does.
 */
export async function listWebhooks(api: Api, signal?: AbortSignal): Promise<Webhook[]> {
  const [connectors, actions, rules] = await Promise.all([api.connectors.list(signal), api.connectors.actions.list(signal), webhookRules(api, signal)])
  const connectorByName = new Map(connectors.filter((c) => c.type === WEBHOOK_TYPE && isWebhookId(c.name)).map((c) => [c.name, c]))
  const ruleById = new Map(rules.map((rule) => [rule.id, rule]))
  return actions.flatMap((action) => {
    if (action.type !== WEBHOOK_TYPE || !isWebhookId(action.name)) return []
    const rule = ruleById.get(action.name)
    const connector = connectorByName.get(action.connector)
    const sendsToIt = rule?.actions.includes(resourceId(action.type, action.name))
    return rule && connector && sendsToIt ? [joined(connector, action, rule)] : []
  })
}

/** One webhook by its name (without the suffix); the API's 404 when a part is missing. */
export async function getWebhook(api: Api, name: string, signal?: AbortSignal): Promise<Webhook> {
  const [connector, action, rule] = await Promise.all([
    api.connectors.get(webhookResourceId(name), signal),
    api.connectors.actions.get(webhookResourceId(name), signal),
    api.rules.get(webhookId(name), signal),
  ])
  return joined(connector, action, rule)
}

// ---------------------------------------------------------------------------------------------
// Writing webhooks

/** Keys of an answer that are not config: a PUT sends the rest back. */
const ANSWER_KEYS = new Set(['type', 'name', 'status', 'status_reason', 'node_status', 'actions', 'sources', 'rules', 'created_at', 'last_modified_at'])

/** A connector's or action's answer as the config its PUT takes. */
export function configOf(answer: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(answer).filter(([key]) => !ANSWER_KEYS.has(key)))
}

/** What the webhook commands set; the rest of the connector and action comes from `connector` and `action` (JSON). */
export interface WebhookSettings {
  url?: string
  method?: WebhookMethod
  headers?: Record<string, string>
  body?: string
  connector?: Record<string, unknown>
  action?: Record<string, unknown>
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** `over` merged into `base` key by key where both are objects; `headers` are taken whole; a null removes the key. */
export function mergeConfig(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(over)) {
    const current = out[key]
    if (value === null) delete out[key]
    else out[key] = key !== 'headers' && isObject(current) && isObject(value) ? mergeConfig(current, value) : value
  }
  return out
}

/** The connector's config: `base` (the stored one, or nothing), the JSON, then the fields set here. */
export function connectorConfig(base: Record<string, unknown>, settings: WebhookSettings): Record<string, unknown> {
  const { url, headers } = settings
  return mergeConfig(mergeConfig(base, settings.connector ?? {}), { ...(url === undefined ? {} : { url }), ...(headers === undefined ? {} : { headers }) })
}

/** The action's config; its headers are the connector's (as the dashboard syncs them). */
export function actionConfig(
  base: Record<string, unknown>,
  connector: string,
  settings: WebhookSettings,
): { connector: string; parameters: Record<string, unknown> } & Record<string, unknown> {
  const { method, headers, body } = settings
  const parameters = { ...(method === undefined ? {} : { method }), ...(headers === undefined ? {} : { headers }), ...(body ? { body } : {}) }
  const config = mergeConfig(mergeConfig(base, settings.action ?? {}), { connector, parameters })
  const merged = isObject(config.parameters) ? config.parameters : parameters
  // An empty body means none: EMQX then sends the whole selected row as JSON.
  if (body === '') delete merged.body
  return { ...config, connector, parameters: merged }
}
