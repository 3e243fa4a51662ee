// Node-wide counters under the names EMQX 5 reports in GET /metrics (the names are the contract's).
import type { PacketCmd } from 'mqtt-packet'
import { METRIC_NAMES, type MetricName } from '../../contract/stats-metrics.ts'

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
