// Topic metrics (EMQX `emqx_topic_metrics`): per registered topic name, counters of messages in
// (published), out (delivered) and dropped, by QoS, from the broker's own hooks, and their rates:
// sampled once a tick (1 s in EMQX) and smoothed with EMQX's modified moving average over 5 ticks.
// At most 512 topics; no wildcards. The topic list survives a restart, the counters do not.
import * as v from 'valibot'
import { MAX_TOPIC_METRICS, TOPIC_METRIC_NAMES, type TopicMetricName } from '../../../contract/topic-metrics.ts'
import type { Broker } from '../../broker/broker.ts'

/** How the list is stored, as EMQX's `topic_metrics` config: `[{topic}]`. */
export const StoredTopicMetricsSchema = v.array(v.object({ topic: v.string() }))

/** EMQX's short window: a modified moving average over 5 ticks. */
const SPEED_WINDOW = 5

interface Entry {
  topic: string
  createdAt: number
  resetAt: number | undefined
  counts: Record<TopicMetricName, number>
  /** Counter values at the last tick, and the smoothed rate per metric. */
  last: Record<TopicMetricName, number>
  rates: Record<TopicMetricName, number>
}

export interface TopicMetricsSnapshot {
  topic: string
  createdAt: number
  resetAt: number | undefined
  counts: Record<TopicMetricName, number>
  rates: Record<TopicMetricName, number>
}

export type RegisterResult = 'ok' | 'already_existed' | 'bad_topic' | 'quota_exceeded'

function zeros(): Record<TopicMetricName, number> {
  return Object.fromEntries(TOPIC_METRIC_NAMES.map((name) => [name, 0])) as Record<TopicMetricName, number>
}

function isWildcard(topic: string): boolean {
  return topic.split('/').some((level) => level === '+' || level === '#')
}

export class TopicMetricsFeature {
  private readonly entries = new Map<string, Entry>()
  private readonly unhooks: Array<() => void>
  private readonly timer: NodeJS.Timeout
  private readonly tickMs: number
  /** Called with the topic list after every change, to store it. */
  private readonly persist: (topics: string[]) => void

  constructor(broker: Broker, options: { tickMs?: number; persist?: (topics: string[]) => void } = {}) {
    this.tickMs = options.tickMs ?? 1000
    this.persist = options.persist ?? (() => {})
    const qosName = (qos: number, way: 'in' | 'out') => `messages.qos${qos}.${way}` as TopicMetricName
    this.unhooks = [
      // Low priority: counted after rewrite and delayed publish had their say, as EMQX's hook order does.
      broker.hooks.add(
        'message.publish',
        (message) => {
          const entry = this.entries.get(message.topic)
          if (entry) {
            entry.counts['messages.in']++
            entry.counts[qosName(message.qos, 'in')]++
          }
          return undefined
        },
        -100,
      ),
      broker.hooks.add('message.delivered', (_info, message, qos) => {
        const entry = this.entries.get(message.topic)
        if (entry) {
          entry.counts['messages.out']++
          entry.counts[qosName(qos, 'out')]++
        }
      }),
      broker.hooks.add('message.dropped', (message) => {
        const entry = this.entries.get(message.topic)
        if (entry) entry.counts['messages.dropped']++
      }),
    ]
    this.timer = setInterval(() => this.tick(), this.tickMs)
    this.timer.unref()
  }

  /** Registers the stored topics at start-up (no persisting, nothing refused but wildcards and the limit). */
  load(topics: string[]): void {
    for (const topic of topics) this.add(topic, false)
  }

  register(topic: string): RegisterResult {
    return this.add(topic, true)
  }

  private add(topic: string, persist: boolean): RegisterResult {
    if (this.entries.has(topic)) return 'already_existed'
    if (isWildcard(topic)) return 'bad_topic'
    if (this.entries.size >= MAX_TOPIC_METRICS) return 'quota_exceeded'
    this.entries.set(topic, { topic, createdAt: Date.now(), resetAt: undefined, counts: zeros(), last: zeros(), rates: zeros() })
    if (persist) this.save()
    return 'ok'
  }

  deregister(topic: string): boolean {
    if (!this.entries.delete(topic)) return false
    this.save()
    return true
  }

  /** Zeroes one topic's counters and rates (false when it is not registered), or every topic's. */
  reset(topic?: string): boolean {
    if (topic !== undefined) {
      const entry = this.entries.get(topic)
      if (!entry) return false
      this.resetEntry(entry)
      return true
    }
    for (const entry of this.entries.values()) this.resetEntry(entry)
    return true
  }

  private resetEntry(entry: Entry): void {
    entry.counts = zeros()
    entry.last = zeros()
    entry.rates = zeros()
    entry.resetAt = Date.now()
  }

  topics(): string[] {
    return [...this.entries.keys()]
  }

  snapshot(topic: string): TopicMetricsSnapshot | undefined {
    const entry = this.entries.get(topic)
    if (!entry) return undefined
    return { topic, createdAt: entry.createdAt, resetAt: entry.resetAt, counts: { ...entry.counts }, rates: { ...entry.rates } }
  }

  list(): TopicMetricsSnapshot[] {
    return this.topics().map((topic) => this.snapshot(topic)!)
  }

  /** One sample: the per-second speed since the last tick, folded into the moving average. */
  tick(): void {
    const seconds = this.tickMs / 1000
    for (const entry of this.entries.values()) {
      for (const name of TOPIC_METRIC_NAMES) {
        const speed = (entry.counts[name] - entry.last[name]) / seconds
        entry.last[name] = entry.counts[name]
        entry.rates[name] = (entry.rates[name] * (SPEED_WINDOW - 1) + speed) / SPEED_WINDOW
      }
    }
  }

  stop(): void {
    clearInterval(this.timer)
    for (const unhook of this.unhooks) unhook()
  }

  private save(): void {
    this.persist(this.topics())
  }
}
