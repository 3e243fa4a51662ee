// Subscriptions across the cluster (`GET /subscriptions`) and the item shape a client's own list shares.
import * as v from 'valibot'
import { paged, type Http } from './http.ts'
import { queryNumberOf, queryPaging, queryText } from './listQuery.ts'

const qos = v.union([v.literal(0), v.literal(1), v.literal(2)])
/** EMQX sends the MQTT 5 options as 0/1 numbers; some versions send booleans. */
const flag = v.optional(v.union([v.number(), v.boolean()]))

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

/** The query `GET /subscriptions` understands, which the subscription list's URL holds too. */
export const subscriptionsSearch = v.object({
  clientid: v.optional(queryText()),
  topic: v.optional(queryText()),
  /** A topic filter over the subscribed topics: `sensors/#` finds `sensors/+/temp` (EMQX's emqx_topic:match). */
  match_topic: v.optional(queryText()),
  qos: v.optional(queryNumberOf([0, 1, 2])),
  share_group: v.optional(queryText()),
  node: v.optional(queryText()),
  ...queryPaging,
})
export type SubscriptionListParams = v.InferOutput<typeof subscriptionsSearch>

export function subscriptionsApi(http: Http) {
  return {
    list(params: SubscriptionListParams = {}, signal?: AbortSignal): Promise<SubscriptionPage> {
      return http.get('subscriptions', subscriptionPageSchema, { ...params }, signal)
    },
  }
}

export type SubscriptionsApi = ReturnType<typeof subscriptionsApi>
