// Subscriptions (EMQX `GET /subscriptions`, and the items of `GET /clients/{clientid}/subscriptions`),
// written once for the server and the browser: the list query, the record, the page and the error.
import * as v from 'valibot'
import { integerText, paged, pagingEntries } from './paging.ts'

/**
 * `GET /subscriptions`. All filters combine; `match_topic` is a topic filter over the subscribed
 * topics (EMQX's `emqx_topic:match(SubTopic, MatchTopic)`), which the server also checks is valid.
 */
export const SubscriptionListQuery = v.object({
  ...pagingEntries(100),
  clientid: v.optional(v.string()),
  topic: v.optional(v.string()),
  qos: v.optional(v.pipe(integerText, v.maxValue(2, 'must be 0, 1 or 2'))),
  share_group: v.optional(v.string()),
  match_topic: v.optional(v.string()),
  node: v.optional(v.string()),
})

/** One subscription as this server writes it: `$share/<group>/` stays in the topic, options as 0/1. */
export const SubscriptionRecordSchema = v.object({
  clientid: v.string(),
  node: v.string(),
  topic: v.string(),
  qos: v.picklist([0, 1, 2]),
  nl: v.picklist([0, 1]),
  rap: v.picklist([0, 1]),
  /** Retain Handling: 0, 1 or 2. */
  rh: v.number(),
  /** Only for a shared subscription. */
  share_group: v.optional(v.string()),
  durable: v.boolean(),
})
export type SubscriptionRecord = v.InferOutput<typeof SubscriptionRecordSchema>

export const SubscriptionRecordPageSchema = paged(SubscriptionRecordSchema)

const qos = v.union([v.literal(0), v.literal(1), v.literal(2)])
/** EMQX sends the MQTT 5 options as 0/1 numbers; some versions send booleans. */
const flag = v.optional(v.union([v.number(), v.boolean()]))

/** One subscription as the browser reads it, from this server or any EMQX 5. */
export const subscriptionSchema = v.object({
  topic: v.string(),
  qos,
  clientid: v.optional(v.string()),
  node: v.optional(v.string()),
  /** No Local. */
  nl: flag,
  /** Retain As Published. */
  rap: flag,
  /** Retain Handling: 0 send, 1 send if new, 2 do not send. */
  rh: v.optional(v.number()),
  /** Share group name when the topic is `$share/{group}/...` (newer EMQX). */
  share_group: v.nullish(v.string()),
  durable: v.optional(v.boolean()),
})
export type Subscription = v.InferOutput<typeof subscriptionSchema>

export const subscriptionPageSchema = paged(subscriptionSchema)
export type SubscriptionPage = v.InferOutput<typeof subscriptionPageSchema>

/** The error of this area: status and EMQX code. */
export const subscriptionsErrors = {
  /** 400: a bad query (qos above 2, an invalid `match_topic`, a page or limit out of range, another node). */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
} as const
