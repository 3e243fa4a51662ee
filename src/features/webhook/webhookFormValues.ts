// The webhook form's values: a new webhook's (EMQX's defaults), a saved one's, the errors the
// commands' own argument checks find (plus each topic row's and the advanced fields'), and the
// arguments webhook.create and webhook.update are run with.
import { validateArgs } from '../../../commands/args.ts'
import type { Text } from '../../../commands/define.ts'
import { createWebhook } from '../../../commands/webhooks.ts'
import { isTopicFilter } from '../../../commands/clients.ts'
import { DEFAULT_WEBHOOK_HEADERS, hasNoQuote, type Webhook, type WebhookMethod } from '../../../commands/webhookModel.ts'
import { advancedSettings, advancedValues, type AdvancedValues } from './advancedFields.ts'

export interface WebhookFormValues {
  name: string
  description: string
  topics: string[]
  events: string[]
  method: WebhookMethod
  url: string
  headers: [string, string][]
  body: string
  advanced: AdvancedValues
}

/** Field → what is wrong; a topic row's is `topics.<index>`, an advanced field's `advanced.<part>.<path>`. */
export type WebhookFormErrors = Record<string, Text>

export function newWebhookValues(): WebhookFormValues {
  return {
    name: '',
    description: '',
    topics: ['#'],
    events: [],
    method: 'post',
    url: 'http://',
    headers: Object.entries(DEFAULT_WEBHOOK_HEADERS),
    body: '',
    advanced: advancedValues({}, {}),
  }
}

const stringRecord = (value: unknown): [string, string][] =>
  typeof value === 'object' && value !== null ? Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]) : []

export function webhookFormValues(webhook: Webhook): WebhookFormValues {
  const { parameters } = webhook.action
  return {
    name: webhook.name,
    description: webhook.rule.description,
    topics: [...webhook.trigger.topics],
    events: [...webhook.trigger.events],
    method: webhook.method as WebhookMethod,
    url: webhook.url,
    headers: stringRecord(webhook.connector.headers),
    body: typeof parameters.body === 'string' ? parameters.body : '',
    advanced: advancedValues(webhook.connector, webhook.action),
  }
}

/** The values as text, to tell an edited form from the one it started as. */
export const comparable = (values: WebhookFormValues): string => JSON.stringify(values)

const filledTopics = (values: WebhookFormValues) => values.topics.map((topic) => topic.trim()).filter((topic) => topic !== '')
const headerObject = (values: WebhookFormValues) => Object.fromEntries(values.headers.filter(([k, v]) => k.trim() !== '' || v !== '').map(([k, v]) => [k.trim(), v]))

/** webhook.create's arguments. */
export function createArgs(values: WebhookFormValues): Record<string, unknown> {
  const { connector, action } = advancedSettings(values.advanced).settings
  return {
    name: values.name.trim(),
    url: values.url.trim(),
    topics: filledTopics(values).join(', '),
    events: values.events.join(', '),
    method: values.method,
    headers: headerObject(values),
    body: values.body,
    description: values.description,
    connector,
    action,
  }
}

/**
 * webhook.update's arguments: every field, so what was cleared is cleared. An empty trigger part or
 * note is sent as a blank (an empty argument would keep the current one); an empty body, and an
 * advanced field left empty or hidden, as null in the settings (removed from the saved config).
 */
export function updateArgs(values: WebhookFormValues): Record<string, unknown> {
  const { connector, action } = advancedSettings(values.advanced, true).settings
  const args: Record<string, unknown> = { ...createArgs(values), connector }
  const parameters = { ...(action.parameters as Record<string, unknown> | undefined), ...(values.body === '' ? { body: null } : {}) }
  return {
    ...args,
    topics: (args.topics as string) || ' ',
    events: (args.events as string) || ' ',
    description: values.description || ' ',
    action: { ...action, parameters },
  }
}

/** What is wrong, by field: the command's own checks, each topic row, a header without a name, the advanced fields. */
export function webhookFormErrors(values: WebhookFormValues): WebhookFormErrors {
  const errors: WebhookFormErrors = {}
  const checked = validateArgs(createWebhook, createArgs(values))
  if (!checked.ok) for (const { field, key, values: given } of checked.errors) errors[field || 'form'] ??= given ? { key, values: given } : { key }
  delete errors.topics
  values.topics.forEach((topic, index) => {
    const trimmed = topic.trim()
    const repeated = values.topics.slice(0, index).some((other) => other.trim() === trimmed)
    const key = trimmed === '' ? 'err.topicRequired' : !isTopicFilter(trimmed) ? 'err.topicFilter' : !hasNoQuote(trimmed) ? 'webhook.err.topicQuote' : repeated ? 'webhook.err.topicRepeated' : undefined
    if (key) errors[`topics.${index}`] = { key }
  })
  if (filledTopics(values).length + values.events.length === 0) errors.trigger = { key: 'webhook.err.trigger' }
  if (values.headers.some(([k, v]) => k.trim() === '' && v !== '')) errors.headers = { key: 'err.keyRequired' }
  return { ...errors, ...advancedSettings(values.advanced).errors }
}
