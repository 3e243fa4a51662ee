// The routing table: which session subscribes to what, and the way of a published message to every
// matching subscription (one member per shared group, see shared-subscriptions.ts).
import type { QoS } from 'mqtt-packet'
import type { Hooks, SubOptions } from './hooks.ts'
import type { Delivery, Message } from './message.ts'
import type { Metrics } from './metrics.ts'
import type { Session } from './session.ts'
import type { ProtocolLimits } from './settings.ts'
import { groupKey, SHARED_FROM, SharedSelector, type SharedOrigin } from './shared-subscriptions.ts'
import { parseShare, TopicTrie } from './topic-trie.ts'

export const EXCLUSIVE_PREFIX = '$exclusive/'

interface Route {
  clientid: string
  /** Share group for shared subscriptions. */
  share: string | undefined
  /** The filter as the client subscribed it (`$share/g/a`, `$queue/a`), its key in the session. */
  topic: string
}

type SharedDelivery = Delivery & { [SHARED_FROM]?: SharedOrigin }

/** What routing reads from the settings; the broker's live limits object, so changes apply at once. */
type RoutingLimits = Pick<ProtocolLimits, 'upgradeQos' | 'ignoreLoopDeliver' | 'sharedStrategy'>

export class Router {
  private readonly trie = new TopicTrie<Route>()
  /** `$exclusive/<filter>` subscriptions: which client holds each filter. */
  private readonly exclusiveHolders = new Map<string, string>()
  private readonly shared = new SharedSelector()
  private readonly sessions: ReadonlyMap<string, Session>
  private readonly limits: RoutingLimits
  private readonly metrics: Metrics
  private readonly hooks: Hooks
  subscriptionCount = 0
  sharedSubscriptionCount = 0

  constructor(sessions: ReadonlyMap<string, Session>, limits: RoutingLimits, metrics: Metrics, hooks: Hooks) {
    this.sessions = sessions
    this.limits = limits
    this.metrics = metrics
    this.hooks = hooks
  }

  /** Distinct filters routed on (EMQX's `topics.count`). */
  get filterCount(): number {
    return this.trie.filterCount
  }

  /** The client holding an `$exclusive/` filter, if any. */
  exclusiveHolder(filter: string): string | undefined {
    return this.exclusiveHolders.get(filter)
  }

  /** Adds (or replaces) a session's subscription; true when the session did not have it before. */
  add(session: Session, topic: string, options: SubOptions): boolean {
    const filter = routeFilter(topic)
    const exclusive = topic.startsWith(EXCLUSIVE_PREFIX)
    const isNew = !session.subscriptions.has(topic)
    session.setSubscription(topic, options)
    this.trie.add(filter, routeKey(session.clientid, options.share, exclusive), { clientid: session.clientid, share: options.share, topic })
    if (exclusive) this.exclusiveHolders.set(filter, session.clientid)
    if (isNew) {
      this.subscriptionCount++
      if (options.share !== undefined) this.sharedSubscriptionCount++
    }
    return isNew
  }

  remove(session: Session, topic: string, options: SubOptions): void {
    session.deleteSubscription(topic)
    const filter = routeFilter(topic)
    const exclusive = topic.startsWith(EXCLUSIVE_PREFIX)
    this.trie.remove(filter, routeKey(session.clientid, options.share, exclusive))
    if (exclusive && this.exclusiveHolders.get(filter) === session.clientid) this.exclusiveHolders.delete(filter)
    this.subscriptionCount--
    if (options.share !== undefined) this.sharedSubscriptionCount--
  }

  /** A session ends: its subscriptions go, and so do its round_robin positions as a publisher. */
  removeSession(session: Session): void {
    for (const [topic, options] of [...session.subscriptions]) this.remove(session, topic, options)
    this.shared.forgetPublisher(session.clientid)
  }

  /** Delivers a message to every matching subscription; returns how many it went to. */
  route(message: Message): number {
    let matched = 0
    let groups: Map<string, { group: string; filter: string; members: Route[] }> | undefined
    this.trie.match(message.topic, (route, filter) => {
      if (route.share === undefined) {
        if (this.dispatch(route, message)) matched++
        return
      }
      groups ??= new Map()
      const key = groupKey(route.share, filter)
      const entry = groups.get(key) ?? { group: route.share, filter, members: [] }
      entry.members.push(route)
      groups.set(key, entry)
    })
    if (groups) {
      for (const [key, { group, filter, members }] of groups) {
        if (this.dispatch(this.pickShared(key, members, message), message, { group, filter })) matched++
      }
    }
    return matched
  }

  /**
   * Like EMQX, QoS 1/2 messages a shared member received but never acknowledged (or still had
   * queued) go to another member of the same group when the member's session ends; dropped when
   * the group has nobody left.
   */
  redispatchShared(deliveries: Delivery[]): void {
    for (const delivery of deliveries as SharedDelivery[]) {
      const origin = delivery[SHARED_FROM]
      if (delivery.qos === 0 || origin === undefined) continue
      const members: Route[] = []
      this.trie.match(delivery.message.topic, (route, matched) => {
        if (route.share === origin.group && matched === origin.filter) members.push(route)
      })
      if (members.length === 0) {
        this.metrics.inc('messages.dropped')
        this.hooks.run('message.dropped', delivery.message, 'no_subscribers')
        continue
      }
      this.dispatch(this.pickShared(groupKey(origin.group, origin.filter), members, delivery.message), delivery.message, origin)
    }
  }

  /** The QoS a delivery gets: the lower of both, or the subscription's with `upgrade_qos`. */
  deliveryQos(published: QoS, subscribed: QoS): QoS {
    return this.limits.upgradeQos ? subscribed : (Math.min(published, subscribed) as QoS)
  }

  private pickShared(key: string, members: Route[], message: Message): Route {
    const online = members.filter((route) => this.sessions.get(route.clientid)?.connected)
    return this.shared.pick(this.limits.sharedStrategy, key, members, online, message)
  }

  private dispatch(route: Route, message: Message, shared?: SharedOrigin): boolean {
    const { clientid } = route
    const session = this.sessions.get(clientid)
    const options = session?.subscriptions.get(route.topic)
    if (!session || !options) return false
    // No Local, or EMQX's `ignore_loop_deliver` for every client (MQTT 3 has no No Local).
    if ((options.nl || this.limits.ignoreLoopDeliver) && message.from === clientid) {
      this.metrics.inc('delivery.dropped')
      this.metrics.inc('delivery.dropped.no_local')
      this.hooks.run('delivery.dropped', session.info, message, 'no_local')
      // The message did reach a subscription (dropped on delivery, as in EMQX): not `no_subscribers`.
      return true
    }
    const delivery: SharedDelivery = {
      message,
      qos: this.deliveryQos(message.qos, options.qos),
      // Without Retain As Published, a live delivery never carries the retain flag (MQTT 3.3.1.3).
      retain: options.rap && message.retain,
      subids: options.subid !== undefined ? [options.subid] : [],
    }
    if (shared) delivery[SHARED_FROM] = shared
    session.deliver(delivery)
    return true
  }
}

function routeKey(clientid: string, share: string | undefined, exclusive: boolean): string {
  if (exclusive) return `\u0000exclusive\u0000${clientid}`
  return share === undefined ? clientid : `${share}\u0000${clientid}`
}

/** The filter a stored subscription routes on: without `$share/<group>/`, `$queue/` or `$exclusive/`. */
export function routeFilter(topic: string): string {
  return topic.startsWith(EXCLUSIVE_PREFIX) ? topic.slice(EXCLUSIVE_PREFIX.length) : parseShare(topic)!.filter
}
