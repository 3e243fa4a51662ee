// The rule engine (EMQX `/rules`, `/rule_test`, `/rule_events`, `/rule_engine`), written once for the
// server and the browser: a rule as it is sent and as EMQX 5.8 answers it, its outputs, its metrics,
// the event catalogue, the test body and the engine settings. The SQL itself is checked by the
// server's parser (server/rules/sql), not here.
import * as v from 'valibot'
import { paged, pagingEntries } from './paging.ts'

/** The republish output's arguments; every one of them may be a `${field}` template. */
export const RepublishArgsSchema = v.object({
  topic: v.string(),
  qos: v.optional(v.union([v.number(), v.string()])),
  retain: v.optional(v.union([v.boolean(), v.string()])),
  payload: v.optional(v.string()),
  /** Payload-Format-Indicator, Message-Expiry-Interval, Content-Type, Response-Topic, Correlation-Data. */
  mqtt_properties: v.optional(v.record(v.string(), v.unknown())),
  user_properties: v.optional(v.string()),
  direct_dispatch: v.optional(v.union([v.boolean(), v.string()])),
})
export type RepublishArgs = v.InferOutput<typeof RepublishArgsSchema>

/** The defaults EMQX fills in for republish's arguments. */
export const REPUBLISH_DEFAULTS = {
  qos: '${qos}',
  retain: '${retain}',
  payload: '${payload}',
  mqtt_properties: {},
  user_properties: '${user_properties}',
  direct_dispatch: false,
} as const

/** The MQTT 5 properties republish can set, as EMQX names them. */
export const REPUBLISH_MQTT_PROPERTIES = [
  'Payload-Format-Indicator',
  'Message-Expiry-Interval',
  'Content-Type',
  'Response-Topic',
  'Correlation-Data',
] as const

/**
 * One output of a rule: an action id (`http:my_webhook`), or a built-in function (`republish` with
 * its arguments, `console`), or a custom `module:function` EMQX answers for.
 */
export const RuleOutputSchema = v.union([
  v.string(),
  v.object({ function: v.literal('republish'), args: RepublishArgsSchema }),
  v.object({ function: v.string(), args: v.optional(v.record(v.string(), v.unknown())) }),
])
export type RuleOutput = v.InferOutput<typeof RuleOutputSchema>

/** The body of `POST /rules` and `PUT /rules/{id}` (PUT takes any subset and merges it). */
export const RuleBodySchema = v.object({
  id: v.optional(v.string()),
  name: v.optional(v.string()),
  sql: v.string(),
  actions: v.optional(v.array(RuleOutputSchema)),
  enable: v.optional(v.boolean()),
  description: v.optional(v.string()),
  metadata: v.optional(v.record(v.string(), v.unknown())),
})
export type RuleBody = v.InferOutput<typeof RuleBodySchema>

/** A rule as EMQX 5.8 answers it (`format_rule_info_resp`); times are RFC 3339 with milliseconds. */
export const RuleInfoSchema = v.object({
  id: v.string(),
  name: v.string(),
  from: v.array(v.string()),
  sql: v.string(),
  actions: v.array(RuleOutputSchema),
  enable: v.boolean(),
  description: v.string(),
  created_at: v.string(),
  last_modified_at: v.string(),
})
export type RuleInfo = v.InferOutput<typeof RuleInfoSchema>

export const RulePageSchema = paged(RuleInfoSchema)

const oneOrMany = v.optional(v.union([v.string(), v.array(v.string())]))

/** `GET /rules`' query as the server reads it: paging (100 a page) and 5.8's filters; `action` and `source` may repeat. */
export const RuleListQuerySchema = v.object({
  ...pagingEntries(100),
  enable: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
  from: v.optional(v.string()),
  like_id: v.optional(v.string()),
  like_from: v.optional(v.string()),
  like_description: v.optional(v.string()),
  match_from: v.optional(v.string()),
  action: oneOrMany,
  source: oneOrMany,
})
export type RulePage = v.InferOutput<typeof RulePageSchema>

/** Counters of one rule (integers) and its rates (floats, messages per second). */
export const RULE_METRIC_KEYS = [
  'matched',
  'passed',
  'failed',
  'failed.exception',
  'failed.no_result',
  'actions.total',
  'actions.success',
  'actions.failed',
  'actions.failed.out_of_service',
  'actions.failed.unknown',
  'actions.discarded',
  'matched.rate',
  'matched.rate.max',
  'matched.rate.last5m',
] as const
export type RuleMetricKey = (typeof RULE_METRIC_KEYS)[number]

export const RuleMetricsSchema = v.record(v.string(), v.number())
export type RuleMetrics = Record<RuleMetricKey, number>

/** `GET /rules/{id}/metrics`: the sum over nodes, and each node's own. */
export const RuleMetricsResponseSchema = v.object({
  id: v.string(),
  metrics: RuleMetricsSchema,
  node_metrics: v.array(v.object({ node: v.string(), metrics: RuleMetricsSchema })),
})
export type RuleMetricsResponse = v.InferOutput<typeof RuleMetricsResponseSchema>

/** The `event_type` values `/rule_test` takes in its context, as EMQX names them. */
export const RULE_EVENT_TYPES = [
  'message_publish',
  'session_subscribed',
  'session_unsubscribed',
  'message_delivered',
  'message_acked',
  'message_dropped',
  'client_connected',
  'client_disconnected',
  'client_connack',
  'client_check_authz_complete',
  'client_check_authn_complete',
  'delivery_dropped',
  'alarm_activated',
  'alarm_deactivated',
] as const
export type RuleEventType = (typeof RULE_EVENT_TYPES)[number]

const LocalizedText = v.object({ en: v.string(), zh: v.string() })

/** One item of `GET /rule_events`: an event source, the columns it offers and an example for each. */
export const RuleEventInfoSchema = v.object({
  /** The FROM topic: `$events/client_connected`, or `message_publish`'s `t/#`. */
  event: v.string(),
  title: LocalizedText,
  description: LocalizedText,
  columns: v.array(v.string()),
  /** Column → example value (or `[example, description]` for some columns, as EMQX writes them). */
  test_columns: v.record(v.string(), v.unknown()),
  sql_example: v.string(),
})
export type RuleEventInfo = v.InferOutput<typeof RuleEventInfoSchema>
export const RuleEventListSchema = v.array(RuleEventInfoSchema)

/** `POST /rule_test`: the SQL and the event it runs against (missing fields take the event's examples). */
export const RuleTestBodySchema = v.object({
  sql: v.string(),
  context: v.optional(v.record(v.string(), v.unknown()), {}),
})
export type RuleTestBody = v.InferOutput<typeof RuleTestBodySchema>

/** `POST /rules/{id}/test`: an event replayed through a saved rule and its outputs. */
export const RuleIdTestBodySchema = v.object({
  context: v.record(v.string(), v.unknown()),
  stop_action_after_template_rendering: v.optional(v.boolean(), true),
})

/** `GET` and `PUT /rule_engine`. */
export const RuleEngineSettingsSchema = v.object({
  ignore_sys_message: v.optional(v.boolean()),
  /** EMQX 5.8 answers it in milliseconds (12000) and takes a duration ("12s") or milliseconds. */
  jq_function_default_timeout: v.optional(v.union([v.string(), v.number()])),
  jq_implementation_module: v.optional(v.string()),
})
export type RuleEngineSettings = v.InferOutput<typeof RuleEngineSettingsSchema>

/** The errors of this area: status and EMQX code. */
export const rulesErrors = {
  /** 400: a body or SQL the server refuses; the message says why (a parse error names its position). */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 404 `Rule Id Not Found`. */
  notFound: { status: 404, code: 'NOT_FOUND' },
  /** 404 on `/rules/{id}/test`. */
  ruleNotFound: { status: 404, code: 'RULE_NOT_FOUND' },
  /** 412 `SQL Not Match`: the WHERE clause (or the FROM filters) rejected the test event. */
  notMatch: { status: 412, code: 'NOT_MATCH' },
} as const
