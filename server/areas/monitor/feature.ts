// The dashboard monitor, as EMQX 5.8's emqx_dashboard_monitor: a sample of the broker's gauges and
// counters every interval (10 s), counters stored as the growth since the sample before, kept for
// 7 days and downsampled by age. GET /monitor and /monitor_current read from here.
//
// EMQX facts replicated (emqx_dashboard.hrl and emqx_dashboard_monitor.erl, 5.8):
// - gauges: disconnected_durable_sessions, subscriptions_durable, subscriptions, topics,
//   connections, live_connections; counters: received, sent, validation_succeeded,
//   validation_failed, transformation_succeeded, transformation_failed, dropped, persisted.
// - samples are taken at times aligned to the interval; the first one after start stores the
//   counters as they are (they start at 0 with the node), later ones the difference.
// - samples older than 7 days are deleted, and stored samples are merged in place into buckets by
//   age (every 10 minutes and at start): <= 1 min 1 s, <= 1 h 10 s, <= 1 day 1 min, <= 3 days
//   5 min, older 10 min. A merge keeps the newest gauge value and sums the counters.
// - a read for the latest N seconds downsamples the same way by the window's length, then fills
//   the missing buckets from the window's start with samples holding only `time_stamp`.
// - current rates: a fresh sample now against the last periodic one,
//   (now - last) * 1000 div (now_time - last_time), an integer per second.
import type { MonitorRepository, MonitorSample } from './store.ts'
import type { Broker } from '../../broker/broker.ts'
// The sampled fields and the rate names are the contract's.
import { MONITOR_COUNTERS as COUNTERS, MONITOR_GAUGES as GAUGES, MONITOR_RATE_NAMES as RATE_NAMES } from '../../../contract/monitor.ts'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

export const RETENTION_MS = 7 * DAY
const CLEAN_INTERVAL_MS = 10 * MINUTE

const SAMPLED = [...GAUGES, ...COUNTERS]
const GAUGE_SET: ReadonlySet<string> = new Set(GAUGES)

/** Fields EMQX reports only for the whole cluster (CLUSTERONLY_SAMPLER_LIST). */
const CLUSTER_ONLY = ['subscriptions_durable', 'disconnected_durable_sessions']

type Data = Record<string, number>

/** EMQX's sample_interval/1: the bucket width for data of that age (or a window of that length). */
export function sampleInterval(ageMs: number): number {
  if (ageMs <= 60 * SECOND) return SECOND
  if (ageMs <= HOUR) return 10 * SECOND
  if (ageMs <= DAY) return MINUTE
  if (ageMs <= 3 * DAY) return 5 * MINUTE
  return 10 * MINUTE
}

const roundDown = (time: number, interval: number) => time - (time % interval)

/** merge_local_sampler_maps: `newer` wins for gauges, counters add up; absent fields stay absent. */
function mergeLocal(newer: Data, older: Data): Data {
  const merged = { ...older }
  for (const key of SAMPLED) {
    if (!(key in newer) && !(key in older)) continue
    merged[key] = GAUGE_SET.has(key) ? (newer[key] ?? older[key] ?? 0) : (newer[key] ?? 0) + (older[key] ?? 0)
  }
  return merged
}

/** `samples` (oldest first) merged into buckets of `intervalFor(time)`, oldest first. */
function bucketed(samples: MonitorSample[], intervalFor: (time: number) => number): MonitorSample[] {
  const out: MonitorSample[] = []
  for (const { time, data } of samples) {
    const bucket = roundDown(time, intervalFor(time))
    const last = out.at(-1)
    if (last && last.time === bucket) last.data = mergeLocal(data, last.data)
    else out.push({ time: bucket, data: { ...data } })
  }
  return out
}

/** EMQX's downsample_local: one bucket width for the whole read, from the window's length. */
export function downsample(sinceTime: number, samples: MonitorSample[]): MonitorSample[] {
  if (samples.length < 2) return samples
  const interval = sampleInterval(samples[samples.length - 1].time - sinceTime)
  return bucketed(samples, () => interval)
}

/** EMQX's fill_gaps: an empty sample for every missing bucket from the window's start to the last. */
export function fillGaps(sinceTime: number, samples: MonitorSample[]): MonitorSample[] {
  if (samples.length < 2) return samples
  const first = samples[0].time
  const latest = samples[samples.length - 1].time
  const interval = sampleInterval(latest - sinceTime)
  const start = roundDown(sinceTime, interval)
  const byTime = new Map(samples.map((sample) => [sample.time, sample]))
  for (let time = start === 0 || start === first ? first : start; time < latest; time += interval) {
    if (!byTime.has(time)) byTime.set(time, { time, data: {} })
  }
  return [...byTime.values()].sort((a, b) => a.time - b.time)
}

/** EMQX's in-place downsample: every stored sample into the bucket its age calls for. */
export function compact(now: number, samples: MonitorSample[]): { deletes: number[]; writes: MonitorSample[] } {
  const buckets = bucketed(samples, (time) => sampleInterval(now - time))
  const kept = new Map(buckets.map((bucket) => [bucket.time, bucket]))
  const deletes = samples.filter((sample) => !kept.has(sample.time)).map((sample) => sample.time)
  const original = new Map(samples.map((sample) => [sample.time, sample.data]))
  const writes = buckets.filter((bucket) => JSON.stringify(original.get(bucket.time)) !== JSON.stringify(bucket.data))
  return { deletes, writes }
}

/**
 * adjust_synthetic_cluster_metrics: cluster subscriptions include the durable ones (reported apart
 * as subscriptions_ram), connections include disconnected durable sessions.
 */
function clusterAdjusted(data: Data): Data {
  const ram = data.subscriptions ?? 0
  return {
    ...data,
    subscriptions: ram + (data.subscriptions_durable ?? 0),
    subscriptions_ram: ram,
    connections: (data.connections ?? 0) + (data.disconnected_durable_sessions ?? 0),
  }
}

export interface MonitorOptions {
  /** How often a sample is taken (EMQX: `dashboard.sample_interval`, 10 s). */
  intervalMs: number
  /** The clock samples are stamped and aged with (epoch ms); injectable for tests. */
  now: () => number
}

export type MonitorScope = 'cluster' | 'node'

export class MonitorSampler {
  private readonly broker: Broker
  readonly repository: MonitorRepository
  private readonly options: MonitorOptions
  /** The last periodic sample with absolute counter values: the base of the next delta and of rates. */
  private last: MonitorSample | undefined
  private sampleTimer: NodeJS.Timeout | undefined
  private cleanTimer: NodeJS.Timeout | undefined
  private running = false

  constructor(broker: Broker, repository: MonitorRepository, options: MonitorOptions) {
    this.broker = broker
    this.repository = repository
    this.options = options
  }

  /** Cleans at once (as EMQX does at start), then samples on every interval boundary. */
  start(): void {
    if (this.running) return
    this.running = true
    this.clean()
    this.scheduleSample()
    this.cleanTimer = setInterval(() => this.clean(), CLEAN_INTERVAL_MS)
    this.cleanTimer.unref()
  }

  stop(): void {
    this.running = false
    clearTimeout(this.sampleTimer)
    clearInterval(this.cleanTimer)
  }

  private scheduleSample(): void {
    if (!this.running) return
    const { intervalMs, now } = this.options
    const current = now()
    const next = roundDown(current, intervalMs) + intervalMs
    const delay = Math.min(Math.max(next - current, 0), intervalMs)
    this.sampleTimer = setTimeout(() => {
      this.takeSample(next)
      this.scheduleSample()
    }, delay)
    this.sampleTimer.unref()
  }

  /** The broker's figures now, counters absolute. */
  private read(time: number): MonitorSample {
    const stats = this.broker.stats()
    const metrics: Record<string, number> = this.broker.metrics.snapshot()
    return {
      time,
      data: {
        // The embedded broker keeps no durable (disk-backed) sessions: none can be disconnected.
        disconnected_durable_sessions: 0,
        subscriptions_durable: stats['durable_subscriptions.count'] ?? 0,
        subscriptions: stats['subscriptions.count'],
        topics: stats['topics.count'],
        connections: stats['connections.count'],
        live_connections: stats['live_connections.count'],
        received: metrics['messages.received'],
        sent: metrics['messages.sent'],
        // No schema validation or message transformation runs here, so none succeeds or fails.
        validation_succeeded: metrics['messages.validation_succeeded'] ?? 0,
        validation_failed: metrics['messages.validation_failed'] ?? 0,
        transformation_succeeded: metrics['messages.transformation_succeeded'] ?? 0,
        transformation_failed: metrics['messages.transformation_failed'] ?? 0,
        dropped: metrics['messages.dropped'],
        persisted: metrics['messages.persisted'],
      },
    }
  }

  /** Takes and stores one periodic sample stamped `time` (EMQX's flush). */
  takeSample(time = roundDown(this.options.now(), this.options.intervalMs)): void {
    if (this.last && time <= this.last.time) return
    const now = this.read(time)
    const stored = { time, data: { ...now.data } }
    if (this.last) for (const key of COUNTERS) stored.data[key] = now.data[key] - this.last.data[key]
    this.repository.store(stored)
    this.last = now
  }

  /** Deletes samples older than 7 days and merges the rest into their age's buckets, atomically. */
  clean(): { expired: number } {
    const now = this.options.now()
    return this.repository.rewrite(now - RETENTION_MS, (all) => compact(now, all))
  }

  /** DELETE /monitor: forgets every stored sample; later samples still count from the last one. */
  clear(): void {
    this.repository.clear()
  }

  /** GET /monitor: the samples of the latest `latestSeconds` (all when absent), as EMQX returns them. */
  samples(scope: MonitorScope, latestSeconds?: number): Array<Data & { time_stamp: number }> {
    const since = latestSeconds === undefined ? 0 : this.options.now() - latestSeconds * SECOND
    let samples = downsample(since, this.repository.since(since))
    // One node is the whole cluster: the cluster read differs only by EMQX's synthetic fields.
    if (scope === 'cluster') samples = samples.map(({ time, data }) => ({ time, data: clusterAdjusted(data) }))
    return fillGaps(since, samples).map(({ time, data }) => ({ ...data, time_stamp: time }))
  }

  /**
   * GET /monitor_current: gauges now, and each counter's rate per second since the last periodic
   * sample (EMQX's cal_rate, integer division; 0 before the first sample). EMQX answers zeros for
   * the gauges too until its first sample; here they are the real values from the start.
   */
  current(scope: MonitorScope): Data {
    const time = this.options.now()
    const now = this.read(time)
    const result: Data = {}
    for (const key of GAUGES) result[key] = now.data[key]
    const last = this.last
    const elapsed = last ? Math.max(time - last.time, 1) : 0
    for (const key of COUNTERS) result[RATE_NAMES[key]] = last ? Math.trunc(((now.data[key] - last.data[key]) * SECOND) / elapsed) : 0
    const stats = this.broker.stats()
    result.retained_msg_count = stats['retained.count']
    result.shared_subscriptions = stats['subscriptions.shared.count']
    if (scope === 'node') {
      // emqx_sys:uptime/0: milliseconds (the API's description says seconds; the value is ms).
      result.node_uptime = Date.now() - this.broker.startedAt
      for (const key of CLUSTER_ONLY) delete result[key]
      return result
    }
    return clusterAdjusted(result)
  }
}
