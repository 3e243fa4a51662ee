// Node-wide counters under the names EMQX 5 reports in GET /metrics.
import type { PacketCmd } from 'mqtt-packet'

export const METRIC_NAMES = [
  'bytes.received',
  'bytes.sent',
  'packets.received',
  'packets.sent',
  'packets.connect.received',
  'packets.connack.sent',
  'packets.connack.error',
  'packets.connack.auth_error',
  'packets.publish.received',
  'packets.publish.sent',
  'packets.publish.inuse',
  'packets.publish.error',
  'packets.publish.auth_error',
  'packets.publish.dropped',
  'packets.puback.received',
  'packets.puback.sent',
  'packets.puback.inuse',
  'packets.puback.missed',
  'packets.pubrec.received',
  'packets.pubrec.sent',
  'packets.pubrec.inuse',
  'packets.pubrec.missed',
  'packets.pubrel.received',
  'packets.pubrel.sent',
  'packets.pubrel.missed',
  'packets.pubcomp.received',
  'packets.pubcomp.sent',
  'packets.pubcomp.inuse',
  'packets.pubcomp.missed',
  'packets.subscribe.received',
  'packets.subscribe.error',
  'packets.subscribe.auth_error',
  'packets.suback.sent',
  'packets.unsubscribe.received',
  'packets.unsubscribe.error',
  'packets.unsuback.sent',
  'packets.pingreq.received',
  'packets.pingresp.sent',
  'packets.disconnect.received',
  'packets.disconnect.sent',
  'packets.auth.received',
  'packets.auth.sent',
  'messages.received',
  'messages.sent',
  'messages.qos0.received',
  'messages.qos0.sent',
  'messages.qos1.received',
  'messages.qos1.sent',
  'messages.qos2.received',
  'messages.qos2.sent',
  'messages.publish',
  'messages.dropped',
  'messages.dropped.await_pubrel_timeout',
  'messages.dropped.no_subscribers',
  'messages.dropped.receive_maximum',
  'messages.forward',
  'messages.delayed',
  'messages.retained',
  'messages.delivered',
  'messages.acked',
  'messages.persisted',
  'delivery.dropped',
  'delivery.dropped.no_local',
  'delivery.dropped.too_large',
  'delivery.dropped.qos0_msg',
  'delivery.dropped.queue_full',
  'delivery.dropped.expired',
  'client.connect',
  'client.connack',
  'client.connected',
  'client.authenticate',
  'client.auth.anonymous',
  'client.authorize',
  'client.subscribe',
  'client.unsubscribe',
  'client.disconnected',
  'session.created',
  'session.resumed',
  'session.takenover',
  'session.discarded',
  'session.terminated',
  'authorization.allow',
  'authorization.deny',
  'authorization.cache_hit',
  'authorization.cache_miss',
  'authorization.superuser',
  'authorization.nomatch',
  'authorization.matched.allow',
  'authorization.matched.deny',
  'authentication.success',
  'authentication.success.anonymous',
  'authentication.failure',
] as const

export type MetricName = (typeof METRIC_NAMES)[number]

/** `packets.{cmd}.{direction}` per packet type, built once: counting runs for every packet. */
function packetMetrics(direction: 'received' | 'sent'): ReadonlyMap<string, MetricName> {
  const names = new Map<string, MetricName>()
  for (const name of METRIC_NAMES) {
    const [group, cmd, dir] = name.split('.')
    if (group === 'packets' && dir === direction && cmd) names.set(cmd, name)
  }
  return names
}

const receivedMetric = packetMetrics('received')
const sentMetric = packetMetrics('sent')

export class Metrics {
  private readonly counters = Object.fromEntries(METRIC_NAMES.map((name) => [name, 0])) as Record<MetricName, number>

  inc(name: MetricName, by = 1): void {
    this.counters[name] += by
  }

  /** Counts one MQTT packet read from a client. */
  packetReceived(cmd: PacketCmd): void {
    this.counters['packets.received']++
    const name = receivedMetric.get(cmd)
    if (name) this.counters[name]++
  }

  /** Counts one MQTT packet written to a client, with its size on the wire. */
  packetSent(cmd: PacketCmd, bytes: number): void {
    this.counters['packets.sent']++
    this.counters['bytes.sent'] += bytes
    const name = sentMetric.get(cmd)
    if (name) this.counters[name]++
  }

  snapshot(): Record<MetricName, number> {
    return { ...this.counters }
  }
}
