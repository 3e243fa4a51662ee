// Auto subscribe (EMQX `auto_subscribe`): every client that connects is subscribed to these topics,
// with `${clientid}`, `${username}`, `${host}` and `${port}` filled in from the client.
import { AutoSubscribeTopicSchema, MAX_AUTO_SUBSCRIBE, type AutoSubscribeTopic } from '../../../contract/auto-subscribe.ts'
import type { Broker } from '../../broker/broker.ts'
import type { ClientInfo } from '../../broker/hooks.ts'
import { HP } from '../../broker/hook-priorities.ts'

export { AutoSubscribeTopicSchema, MAX_AUTO_SUBSCRIBE, type AutoSubscribeTopic }

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
    }, HP.AUTO_SUB)
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
