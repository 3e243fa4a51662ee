// The retainer (EMQX `retainer`): keeps the last retained message per topic and hands matching ones
// to new subscriptions, within its settings (enable, size and count limits, expiry, clearing).
import * as v from 'valibot'
import type { Message } from './message.ts'
import { matchesFilter } from './topic-trie.ts'
import { keptAt } from '../../contract/mqtt-configs.ts'
import { durationText, parseDuration, parseSize, sizeText } from './units.ts'

/** Where retained messages live: memory until the server installs its SQLite store. */
export interface RetainedStore {
  get(topic: string): Message | undefined
  put(message: Message): void
  delete(topic: string): boolean
  /** Messages whose topic the filter matches (expired ones included), in topic order. */
  match(filter: string): Message[]
  /** Up to `limit` of those, the next ones after topic `after` (for reading in batches). */
  matchPage(filter: string, after: string | undefined, limit: number): Message[]
  /** Every message, oldest first, one page of them. */
  page(offset: number, limit: number): Message[]
  count(): number
  clear(): void
  /** Deletes the messages expired at `now` under `rule` (EMQX's periodic clear); how many went. */
  removeExpired(now: number, rule?: ClearRule): number
}

/** How the periodic clear decides (EMQX `msg_expiry_interval_override`, `allow_never_expire`, `msg_clear_limit`). */
export interface ClearRule {
  /** Every message expires this long after it was published, at the latest. */
  overrideMs?: number
  /** With an override: messages that never expire stay. */
  allowNeverExpire: boolean
  /** At most this many are deleted in one run. */
  limit: number
}

/** Whether the periodic clear deletes `message` at `now`. */
export function clearedAt(message: Pick<Message, 'timestamp' | 'expiresAt'>, now: number, rule: ClearRule | undefined): boolean {
  const { expiresAt } = message
  if (rule?.overrideMs === undefined) return expiresAt !== undefined && expiresAt <= now
  const overridden = message.timestamp + rule.overrideMs
  if (expiresAt === undefined) return !rule.allowNeverExpire && overridden <= now
  return Math.min(overridden, expiresAt) <= now
}

export class MemoryRetainedStore implements RetainedStore {
  private readonly messages = new Map<string, Message>()
  get = (topic: string) => this.messages.get(topic)
  put = (message: Message) => void this.messages.set(message.topic, message)
  delete = (topic: string) => this.messages.delete(topic)
  match = (filter: string) =>
    [...this.messages.values()].filter((message) => matchesFilter(filter, message.topic)).sort((a, b) => (a.topic < b.topic ? -1 : 1))
  matchPage = (filter: string, after: string | undefined, limit: number) =>
    this.match(filter)
      .filter((message) => after === undefined || message.topic > after)
      .slice(0, limit)
  page = (offset: number, limit: number) => [...this.messages.values()].slice(offset, offset + limit)
  count = () => this.messages.size
  clear = () => this.messages.clear()
  removeExpired(now: number, rule?: ClearRule): number {
    let removed = 0
    for (const [topic, message] of this.messages) {
      if (removed >= (rule?.limit ?? Infinity)) break
      if (clearedAt(message, now, rule) && this.messages.delete(topic)) removed++
    }
    return removed
  }
}

const count = v.pipe(v.number(), v.integer(), v.minValue(0))

const RATE = /^(\d+)\/(\d*)(ms|s|m|h|d)$/
const RATE_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** EMQX's rate strings (`1000/s`, `10/100ms`, `infinity`): how many per how long, or 'infinity'. */
export function parseRate(text: string): { count: number; windowMs: number } | 'infinity' | undefined {
  if (text.trim() === 'infinity') return 'infinity'
  const m = RATE.exec(text.trim())
  if (!m) return undefined
  const windowMs = Number(m[2] || '1') * RATE_UNIT_MS[m[3]]
  return Number(m[1]) > 0 && windowMs > 0 ? { count: Number(m[1]), windowMs } : undefined
}

const rateText = v.pipe(
  v.string(),
  v.check((text) => parseRate(text) !== undefined, 'must be a rate such as 1000/s, 10/100ms or infinity'),
)

/**
 * Paces deliveries of retained messages to `delivery_rate` for the whole node (a token bucket, as
 * EMQX's limiter): what does not fit now goes out, in order, as tokens come back.
 */
class DeliveryPacer {
  private rate: { count: number; windowMs: number } | 'infinity' = 'infinity'
  private tokens = 0
  private refilledAt = Date.now()
  private readonly queue: Array<() => void> = []
  private timer: NodeJS.Timeout | undefined

  setRate(rate: { count: number; windowMs: number } | 'infinity'): void {
    this.rate = rate
    this.tokens = rate === 'infinity' ? 0 : rate.count
    this.refilledAt = Date.now()
    this.drain()
  }

  run(jobs: Array<() => void>): void {
    this.queue.push(...jobs)
    this.drain()
  }

  stop(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.queue.length = 0
  }

  private drain(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    const rate = this.rate
    if (rate === 'infinity') {
      for (const job of this.queue.splice(0)) job()
      return
    }
    const now = Date.now()
    this.tokens = Math.min(rate.count, this.tokens + ((now - this.refilledAt) * rate.count) / rate.windowMs)
    this.refilledAt = now
    while (this.queue.length > 0 && this.tokens >= 1) {
      this.tokens--
      this.queue.shift()!()
    }
    if (this.queue.length === 0) return
    // A job may have run `run` (and armed a timer) itself.
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.drain(), Math.ceil(((1 - this.tokens) * rate.windowMs) / rate.count))
    this.timer.unref()
  }
}

const unique = <T>(list: T[]) => new Set(list.map((item) => JSON.stringify(item))).size === list.length

/** EMQX's retainer index specifications: lists of 1-based topic level positions (a hint for its Mnesia tables). */
const indexSpecs = v.pipe(
  v.array(
    v.pipe(
      v.array(v.pipe(v.number(), v.integer(), v.minValue(1, 'pos_integer_index_limited'))),
      v.minLength(1, 'non_empty_index_spec_limited'),
      v.check(unique, 'unique_index_spec_limited'),
    ),
  ),
  v.check(unique, 'unique_index_spec_limited'),
)
const DEFAULT_INDEX_SPECS = [[1, 2, 3], [1, 3], [2, 3], [3]]

/**
 * The settings as EMQX 5.8's `GET /mqtt/retainer` shows them, in its order. Not implemented here,
 * so kept at EMQX's default: `max_publish_rate` (retained messages are stored at any rate),
 * `external_backends` and `backend.enable` (the built-in database is the one backend).
 * `backend.index_specs` is stored and shown: an index hint for EMQX's tables that SQLite does not need.
 */
export const RetainerConfigSchema = v.object({
  enable: v.optional(v.boolean(), true),
  msg_expiry_interval: v.optional(durationText, '0s'),
  msg_expiry_interval_override: v.optional(v.union([v.literal('disabled'), durationText], 'must be disabled or a duration such as 1h'), 'disabled'),
  allow_never_expire: v.optional(v.boolean(), true),
  msg_clear_interval: v.optional(durationText, '0s'),
  msg_clear_limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'must be a positive integer')), 50_000),
  flow_control: v.optional(
    v.object({
      batch_read_number: v.optional(count, 0),
      batch_deliver_number: v.optional(count, 0),
      batch_deliver_limiter: v.optional(v.unknown()),
    }),
    {},
  ),
  max_payload_size: v.optional(sizeText, '1MB'),
  stop_publish_clear_msg: v.optional(v.boolean(), false),
  delivery_rate: v.optional(rateText, '1000/s'),
  max_publish_rate: keptAt('1000/s'),
  backend: v.optional(
    v.object({
      type: v.optional(v.literal('built_in_database'), 'built_in_database'),
      // EMQX's default is `ram`; this server keeps retained messages on disc unless told otherwise.
      storage_type: v.optional(v.picklist(['ram', 'disc']), 'disc'),
      max_retained_messages: v.optional(count, 0),
      index_specs: v.optional(indexSpecs, () => structuredClone(DEFAULT_INDEX_SPECS)),
      enable: keptAt(true),
    }),
    {},
  ),
  external_backends: keptAt({}),
})

export type RetainerConfig = v.InferOutput<typeof RetainerConfigSchema>

export const defaultRetainerConfig: RetainerConfig = v.parse(RetainerConfigSchema, {})

/** Why a retained message was not stored (reported through the callback for counters/logs). */
export type RetainRefusal = 'payload_too_large' | 'retained_full'

export class Retainer {
  private store: RetainedStore = new MemoryRetainedStore()
  private settings: RetainerConfig = defaultRetainerConfig
  private clearTimer: NodeJS.Timeout | undefined
  private readonly pacer = new DeliveryPacer()
  private max = 0
  /** Called when a retained message is refused; the feature wiring counts it. */
  onRefused: (message: Message, reason: RetainRefusal) => void = () => {}

  constructor() {
    this.pacer.setRate(parseRate(this.settings.delivery_rate) ?? 'infinity')
  }

  get config(): RetainerConfig {
    return this.settings
  }

  /** Moves to another store (the server's SQLite one); what the old store held is left behind. */
  useStore(store: RetainedStore): void {
    this.store = store
    this.max = Math.max(this.max, store.count())
  }

  configure(config: RetainerConfig): void {
    this.settings = config
    this.pacer.setRate(parseRate(config.delivery_rate) ?? 'infinity')
    clearInterval(this.clearTimer)
    this.clearTimer = undefined
    const clearMs = parseDuration(config.msg_clear_interval) ?? 0
    const override = config.msg_expiry_interval_override
    const rule: ClearRule = {
      overrideMs: override === 'disabled' ? undefined : parseDuration(override),
      allowNeverExpire: config.allow_never_expire,
      limit: config.msg_clear_limit,
    }
    if (clearMs > 0) {
      this.clearTimer = setInterval(() => this.store.removeExpired(Date.now(), rule), clearMs)
      this.clearTimer.unref()
    }
  }

  stop(): void {
    clearInterval(this.clearTimer)
    this.pacer.stop()
  }

  /** Sends the retained messages for a new subscription through `send`, no faster than `delivery_rate`. */
  dispatch(filter: string, send: (message: Message) => void): void {
    if (!this.settings.enable) return
    const batch = this.settings.flow_control.batch_read_number
    if (batch === 0) return this.pacer.run(this.forSubscription(filter).map((message) => () => send(message)))
    // `batch_read_number` at a time: the next batch is read once the last one has gone out.
    const readFrom = (after: string | undefined): void => {
      const page = this.store.matchPage(filter, after, batch)
      const more = page.length === batch ? () => readFrom(page[page.length - 1].topic) : () => {}
      const live = this.withoutExpired(page)
      if (live.length === 0) return more()
      this.pacer.run(
        live.map((message, i) => () => {
          send(message)
          if (i === live.length - 1) more()
        }),
      )
    }
    readFrom(undefined)
  }

  /** Drops (and deletes) the expired ones. */
  private withoutExpired(messages: Message[]): Message[] {
    const now = Date.now()
    return messages.filter((message) => {
      const expired = message.expiresAt !== undefined && now >= message.expiresAt
      if (expired) this.store.delete(message.topic)
      return !expired
    })
  }

  get enabled(): boolean {
    return this.settings.enable
  }

  /**
   * Stores (or, with an empty payload, clears) a published retained message. Returns false when the
   * message must not be routed any further (`stop_publish_clear_msg` on an empty payload).
   */
  onPublish(message: Message): boolean {
    if (!this.settings.enable) return true
    if (message.payload.length === 0) {
      this.store.delete(message.topic)
      return !this.settings.stop_publish_clear_msg
    }
    const maxSize = parseSize(this.settings.max_payload_size) ?? 0
    if (maxSize > 0 && message.payload.length > maxSize) {
      this.onRefused(message, 'payload_too_large')
      return true
    }
    const maxCount = this.settings.backend.max_retained_messages
    if (maxCount > 0 && this.store.count() >= maxCount && !this.store.get(message.topic)) {
      this.onRefused(message, 'retained_full')
      return true
    }
    const expiryMs = parseDuration(this.settings.msg_expiry_interval) ?? 0
    // The message's own Message Expiry Interval wins over the retainer's default expiry.
    const expiresAt = message.expiresAt ?? (expiryMs > 0 ? message.timestamp + expiryMs : undefined)
    this.store.put({ ...message, retain: true, expiresAt })
    this.max = Math.max(this.max, this.store.count())
    return true
  }

  /** The retained messages a new subscription to `filter` gets: none while disabled, expired ones removed. */
  forSubscription(filter: string): Message[] {
    if (!this.settings.enable) return []
    return this.withoutExpired(this.store.match(filter))
  }

  /** Live (unexpired) retained messages whose topic matches `filter`, or all of them. */
  list(filter: string | undefined): Message[] {
    const now = Date.now()
    const all = filter === undefined ? this.store.page(0, Number.MAX_SAFE_INTEGER) : this.store.match(filter)
    // Oldest publish first, then by topic, with or without a filter and in either store (EMQX 5.8
    // sorts page_read by message timestamp), so the list keeps its order from one read to the next.
    return all
      .filter((message) => message.expiresAt === undefined || message.expiresAt > now)
      .sort((a, b) => a.timestamp - b.timestamp || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0))
  }

  get(topic: string): Message | undefined {
    const message = this.store.get(topic)
    return message && (message.expiresAt === undefined || message.expiresAt > Date.now()) ? message : undefined
  }

  delete(topic: string): boolean {
    return this.store.delete(topic)
  }

  clear(): void {
    this.store.clear()
  }

  count(): number {
    return this.store.count()
  }

  get maxCount(): number {
    return this.max
  }
}
