// Slow subscriptions (EMQX `slow_subs`): how long deliveries take, measured per subscriber and
// topic on the broker's `delivery.completed` hook, keeping the top-K slowest above a threshold.
// Stats types as EMQX defines them (whole = internal + response):
// - whole: from the broker accepting the PUBLISH to the delivery completing (PUBACK for QoS 1,
//   PUBCOMP for QoS 2; a QoS 0 delivery completes when it is written);
// - internal: from accepting the PUBLISH to writing it to the subscriber (queue time included);
// - response: from writing it to the subscriber to its acknowledgement (0 for QoS 0).
import * as v from 'valibot'
import {
  durationToMs as toMs,
  SLOW_SUBS_MAX_SIZE,
  SLOW_SUBS_MIN_THRESHOLD_MS,
  SlowSubsConfigSchema,
  type SlowSubsConfig,
  type SlowSubsStatsType,
} from '../../../contract/slow-subs.ts'
import type { Broker } from '../../broker/broker.ts'
import type { ClientInfo } from '../../broker/hooks.ts'
import type { Message } from '../../broker/message.ts'
import { HP } from '../../broker/hook-priorities.ts'

export { SLOW_SUBS_MAX_SIZE, SLOW_SUBS_MIN_THRESHOLD_MS, SlowSubsConfigSchema, type SlowSubsConfig, type SlowSubsStatsType }

/** How often expired records are swept (EMQX: every 10 s). */
const EXPIRE_CHECK_INTERVAL_MS = 10_000

export const defaultSlowSubsConfig: SlowSubsConfig = v.parse(SlowSubsConfigSchema, {})

export interface SlowSubRecord {
  clientid: string
  topic: string
  /** Milliseconds, as measured by the configured stats type. */
  timespan: number
  /** Epoch ms of the last update. */
  lastUpdateTime: number
}

export interface SlowSubsOptions {
  /** The clock records are stamped and expired with (epoch ms); Date.now by default. */
  now?: () => number
  /** How often expired records are swept. */
  expireCheckMs?: number
}

/** The latency of one completed delivery, as EMQX's `calc_timespan` computes it. */
export function timespanOf(type: SlowSubsStatsType, acceptedAt: number, deliverBeginAt: number | undefined, completedAt: number): number {
  const begin = deliverBeginAt ?? completedAt
  if (type === 'internal') return begin - acceptedAt
  if (type === 'response') return completedAt - begin
  return completedAt - acceptedAt
}

export class SlowSubsFeature {
  private settings: SlowSubsConfig = defaultSlowSubsConfig
  private readonly broker: Broker
  private readonly now: () => number
  private readonly expireCheckMs: number
  /** Keyed by clientid and topic. */
  private readonly records = new Map<string, SlowSubRecord>()
  private unhook: (() => void) | undefined
  private timer: NodeJS.Timeout | undefined
  private thresholdMs = toMs(defaultSlowSubsConfig.threshold)
  private expireMs = toMs(defaultSlowSubsConfig.expire_interval)
  private maxSize = defaultSlowSubsConfig.top_k_num

  constructor(broker: Broker, options: SlowSubsOptions = {}) {
    this.broker = broker
    this.now = options.now ?? Date.now
    this.expireCheckMs = options.expireCheckMs ?? EXPIRE_CHECK_INTERVAL_MS
  }

  get config(): SlowSubsConfig {
    return this.settings
  }

  /** Applies settings. Records are kept across changes; turning it off stops measuring, as in EMQX. */
  configure(config: SlowSubsConfig): void {
    this.settings = config
    this.thresholdMs = toMs(config.threshold)
    this.expireMs = toMs(config.expire_interval)
    this.maxSize = Math.min(config.top_k_num, SLOW_SUBS_MAX_SIZE)
    this.unload()
    if (!config.enable) return
    this.unhook = this.broker.hooks.add(
      'delivery.completed',
      (info, message, sessionCreatedAt, deliverBeginAt) => this.onDeliveryCompleted(info, message, sessionCreatedAt, deliverBeginAt),
      HP.SLOW_SUB,
    )
    this.timer = setInterval(() => this.expire(), this.expireCheckMs)
    this.timer.unref()
  }

  stop(): void {
    this.unload()
  }

  private unload(): void {
    this.unhook?.()
    this.unhook = undefined
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** The records, slowest first (at most 1000), after dropping the expired ones. */
  list(): SlowSubRecord[] {
    this.expire()
    return [...this.records.values()].sort((a, b) => b.timespan - a.timespan).slice(0, SLOW_SUBS_MAX_SIZE)
  }

  clear(): void {
    this.records.clear()
  }

  /** Drops the records not updated within `expire_interval`. */
  expire(): void {
    const now = this.now()
    for (const [id, record] of this.records) if (now - record.lastUpdateTime >= this.expireMs) this.records.delete(id)
  }

  private onDeliveryCompleted(info: ClientInfo, message: Message, sessionCreatedAt: number, deliverBeginAt: number | undefined): void {
    // Messages older than the session (queued or retained before it existed) say nothing about it.
    if (message.timestamp <= sessionCreatedAt) return
    const timespan = timespanOf(this.settings.stats_type, message.timestamp, deliverBeginAt, Date.now())
    if (timespan <= this.thresholdMs) return
    const id = `${info.clientid}\u0000${message.topic}`
    const existing = this.records.get(id)
    // A record only ever grows: a faster delivery later does not replace (or refresh) it.
    if (existing && timespan <= existing.timespan) return
    const record = { clientid: info.clientid, topic: message.topic, timespan, lastUpdateTime: this.now() }
    if (existing || this.records.size < this.maxSize) {
      this.records.set(id, record)
      return
    }
    // Full: it takes the place of the fastest record, if it is slower than that one.
    let minId: string | undefined
    let min = Infinity
    for (const [key, r] of this.records) {
      if (r.timespan < min) {
        min = r.timespan
        minId = key
      }
    }
    if (minId === undefined || timespan <= min) return
    this.records.delete(minId)
    this.records.set(id, record)
  }
}
