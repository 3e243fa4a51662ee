// Auto subscribe (EMQX `auto_subscribe`): every client that connects is subscribed to these topics,
// with `${clientid}`, `${username}`, `${host}` and `${port}` filled in from the client.
import * as v from 'valibot'
import type { Broker } from '../../broker/broker.ts'
import type { ClientInfo } from '../../broker/hooks.ts'

/** EMQX refuses more topics than this. */
export const MAX_AUTO_SUBSCRIBE = 20

const flag = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1))

export const AutoSubscribeTopicSchema = v.object({
  topic: v.pipe(v.string(), v.minLength(1, 'is required')),
  qos: v.optional(v.picklist([0, 1, 2], 'must be 0, 1 or 2'), 0),
  rh: v.optional(v.picklist([0, 1, 2], 'must be 0, 1 or 2'), 0),
  rap: v.optional(flag, 0),
  nl: v.optional(flag, 0),
})

export type AutoSubscribeTopic = v.InferOutput<typeof AutoSubscribeTopicSchema>

/** The topic with the client's placeholders filled in; undefined when a placeholder has no value. */
export function fillPlaceholders(topic: string, info: ClientInfo): string | undefined {
  if (topic.includes('${username}') && info.username === undefined) return undefined
  return topic
    .split('${clientid}')
    .join(info.clientid)
    .split('${username}')
    .join(info.username ?? '')
    .split('${host}')
    .join(info.peerhost)
    .split('${port}')
    .join(String(info.peerport))
}

export class AutoSubscribeFeature {
  private topics: AutoSubscribeTopic[] = []
  private readonly unhook: () => void

  constructor(broker: Broker) {
    this.unhook = broker.hooks.add('client.connected', (info) => {
      if (this.topics.length === 0) return
      // After the connection has finished connecting (its session resumed): a retained message
      // sent from inside the hook would otherwise be resent at once as a DUP with the session's inflight.
      queueMicrotask(() => this.subscribe(broker, info))
    })
  }

  private subscribe(broker: Broker, info: ClientInfo): void {
    const session = broker.getSession(info.clientid)
    if (!session?.connected) return
    for (const entry of this.topics) {
      const topic = fillPlaceholders(entry.topic, info)
      if (topic === undefined) continue
      const subscription = { topic, qos: entry.qos, nl: entry.nl === 1, rap: entry.rap === 1, rh: entry.rh }
      const result = broker.subscribe(session, subscription, undefined)
      if (result.options) broker.deliverRetained(session, subscription.topic, result.options, result.isNew)
    }
  }

  get config(): AutoSubscribeTopic[] {
    return this.topics
  }

  configure(topics: AutoSubscribeTopic[]): void {
    this.topics = topics
  }

  stop(): void {
    this.unhook()
  }
}
