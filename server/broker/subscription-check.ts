// What a subscription must pass before it is added: a valid filter, the zone's limits (shared,
// wildcard and exclusive subscriptions, max subscriptions), and a free `$exclusive/` filter.
import type { ISubscription } from 'mqtt-packet'
import { RC } from './reason-codes.ts'
import { EXCLUSIVE_PREFIX } from './router.ts'
import type { Session } from './session.ts'
import type { ProtocolLimits } from './settings.ts'
import { isValidFilter, parseShare, topicLevels } from './topic-trie.ts'

type SubscribeLimits = Pick<
  ProtocolLimits,
  'maxTopicLevels' | 'sharedSubscription' | 'exclusiveSubscription' | 'wildcardSubscription' | 'maxSubscriptions'
>

/** The filter a subscription routes on and its share group (undefined for plain and exclusive ones). */
export function parseSubscriptionTopic(topic: string): { filter: string; group: string | undefined; exclusive: boolean } | undefined {
  if (topic.startsWith(EXCLUSIVE_PREFIX)) return { filter: topic.slice(EXCLUSIVE_PREFIX.length), group: undefined, exclusive: true }
  const parsed = parseShare(topic)
  return parsed && { filter: parsed.filter, group: parsed.group, exclusive: false }
}

/**
 * The reason code a subscription to `topic` (already rewritten) is refused with, or undefined when
 * it may be added. `exclusiveHolder` tells who holds an `$exclusive/` filter now.
 */
export function subscriptionProblem(
  session: Session,
  topic: string,
  subscription: Pick<ISubscription, 'nl'>,
  limits: SubscribeLimits,
  exclusiveHolder: (filter: string) => string | undefined,
): number | undefined {
  const parsed = parseSubscriptionTopic(topic)
  // No Local on a shared subscription is a protocol error (MQTT 3.8.3.1).
  if (!parsed || !isValidFilter(parsed.filter) || topicLevels(parsed.filter) > limits.maxTopicLevels || (parsed.group !== undefined && subscription.nl)) {
    return RC.TOPIC_FILTER_INVALID
  }
  if (parsed.group !== undefined && !limits.sharedSubscription) return RC.SHARED_SUBSCRIPTIONS_NOT_SUPPORTED
  if (parsed.exclusive) {
    // As EMQX: `$exclusive/` needs `exclusive_subscription`, and one client at a time holds each filter.
    const holder = exclusiveHolder(parsed.filter)
    if (!limits.exclusiveSubscription) return RC.TOPIC_FILTER_INVALID
    if (holder !== undefined && holder !== session.clientid) return RC.QUOTA_EXCEEDED
  }
  if (!limits.wildcardSubscription && /(^|\/)[+#](\/|$)/.test(parsed.filter)) return RC.WILDCARD_SUBSCRIPTIONS_NOT_SUPPORTED
  if (!session.subscriptions.has(topic) && session.subscriptions.size >= limits.maxSubscriptions) return RC.QUOTA_EXCEEDED
  return undefined
}
