// Subscriptions across the cluster (`GET /subscriptions`), read with the contract
// (contract/subscriptions.ts), and the list's URL query.
import * as v from 'valibot'
import {
  subscriptionPageSchema,
  subscriptionSchema,
  type Subscription,
  type SubscriptionPage,
} from '../../contract/subscriptions.ts'
import type { Http } from './http.ts'
import { queryNumberOf, queryPaging, queryText } from './listQuery.ts'

export { subscriptionPageSchema, subscriptionSchema, type Subscription, type SubscriptionPage }

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
