// One action on this node (emqx_resource_buffer_worker), written once for every type: the rows a
// rule sends wait in a buffer bounded by max_buffer_bytes (the oldest dropped as queue_full), leave
// in batches (batch_size, batch_time) through at most `concurrency` requests at a time (worker_pool_size
// workers, each with inflight_window requests when async), rows older than request_ttl are dropped
// as expired, and a RecoverableError (or a timeout) puts the batch back to be retried after
// resume_interval. While the connector is not connected nothing leaves and the rows wait.
import type { ActionOutcome } from '../../rules/engine/outputs.ts'
import { RecoverableError, type ActionDriver, type ResourceHealth } from '../driver.ts'
import type { ConnectorResource } from './connector-resource.ts'
import { BridgeCounters, type DropReason } from './metrics.ts'
import { RowQueue, type QueuedRow } from './row-queue.ts'
import { errorText, withTimeout } from './timing.ts'

export interface ActionTiming {
  batchSize: number
  batchTimeMs: number
  /** Requests in flight at most: worker_pool_size, times inflight_window in async mode. */
  concurrency: number
  /** request_ttl; undefined is infinity. */
  requestTtlMs: number | undefined
  maxBufferBytes: number
  resumeIntervalMs: number
  /** query_mode sync: a rule's send answers when the row was sent (or failed). */
  sync: boolean
  /** How often the action's own health (a driver's `health`) is checked while its connector is connected. */
  healthCheckMs: number
}

/** How long one request may take when request_ttl is infinity. */
const DEFAULT_REQUEST_TIMEOUT_MS = 45_000

export class ActionResource {
  readonly driver: ActionDriver
  readonly metrics: BridgeCounters
  private readonly connector: ConnectorResource
  private readonly prepared: unknown
  private readonly timing: ActionTiming
  private readonly queue = new RowQueue()
  private inflight = 0
  private blockedUntil = 0
  private timer: NodeJS.Timeout | undefined
  private stopped = false
  private readonly unwatch: () => void
  /** The driver's last answer about the action itself (a table that exists...); undefined without one. */
  private ownHealth: ResourceHealth | undefined
  private healthTimer: NodeJS.Timeout | undefined

  constructor(driver: ActionDriver, prepared: unknown, connector: ConnectorResource, timing: ActionTiming) {
    this.driver = driver
    this.prepared = prepared
    this.connector = connector
    this.timing = timing
    this.metrics = new BridgeCounters(() => this.gauges())
    this.unwatch = connector.onStatus((state) => {
      if (state === 'connected') void this.checkHealth()
    })
    if (driver.health) {
      this.healthTimer = setInterval(() => void this.checkHealth(), timing.healthCheckMs)
      this.healthTimer.unref()
    }
    if (connector.status === 'connected') void this.checkHealth()
  }

  /** The action's own health on top of its connector's, when its driver checks one; undefined otherwise. */
  get health(): ResourceHealth | undefined {
    return this.ownHealth
  }

  private async checkHealth(): Promise<void> {
    const conn = this.connector.connection
    if (this.driver.health && conn !== undefined) {
      try {
        this.ownHealth = await withTimeout(this.driver.health(conn, this.prepared), this.timing.healthCheckMs, 'health check timeout')
      } catch (error) {
        this.ownHealth = { status: 'disconnected', reason: errorText(error) }
      }
    }
    this.pump()
  }

  gauges(): { queuing: number; queuing_bytes: number; inflight: number } {
    return { queuing: this.queue.length, queuing_bytes: this.queue.bytes, inflight: this.inflight }
  }

  /** What a rule test shows for a row, without sending it. */
  render(row: Record<string, unknown>): unknown {
    return this.driver.render ? this.driver.render(this.prepared, row) : row
  }

  /** A rule's selected row: queued, then sent; in sync mode the answer waits for the send. */
  query(row: Record<string, unknown>): ActionOutcome | Promise<ActionOutcome> {
    this.metrics.add('matched')
    if (this.stopped || this.connector.status === 'stopped') {
      this.metrics.drop('resource_stopped')
      return 'out_of_service'
    }
    const now = Date.now()
    const item: QueuedRow = {
      row,
      bytes: rowBytes(row),
      deadline: this.timing.requestTtlMs === undefined ? undefined : now + this.timing.requestTtlMs,
      queuedAt: now,
    }
    const answer = this.timing.sync ? new Promise<ActionOutcome>((resolve) => (item.done = resolve)) : 'ok'
    this.queue.push(item)
    while (this.queue.bytes > this.timing.maxBufferBytes && this.queue.length > 1) this.finish(this.queue.shift()!, { drop: 'queue_full' })
    this.pump()
    return answer
  }

  /** Takes what it can from the buffer and sends it. */
  pump(): void {
    if (this.stopped) return
    const now = Date.now()
    if (now < this.blockedUntil) return this.wake(this.blockedUntil - now)
    const conn = this.connector.connection
    // Nothing leaves while the connector is down or the target says the action cannot work.
    if (conn === undefined || (this.ownHealth && this.ownHealth.status !== 'connected')) return
    while (this.inflight < this.timing.concurrency && this.queue.length > 0) {
      this.dropExpired(now)
      if (this.queue.length === 0) break
      const head = this.queue.peek()!
      if (this.queue.length < this.timing.batchSize && now < head.queuedAt + this.timing.batchTimeMs) {
        this.wake(head.queuedAt + this.timing.batchTimeMs - now)
        break
      }
      void this.send(conn, this.queue.take(this.timing.batchSize))
    }
  }

  private async send(conn: unknown, batch: QueuedRow[]): Promise<void> {
    this.inflight += batch.length
    const deadlines = batch.map((item) => item.deadline ?? Infinity)
    const soonest = Math.min(...deadlines)
    const timeoutMs = soonest === Infinity ? DEFAULT_REQUEST_TIMEOUT_MS : Math.max(1, soonest - Date.now())
    const controller = new AbortController()
    let timedOut = false
    let timer: NodeJS.Timeout | undefined
    const sending = this.driver.send(conn, this.prepared, batch.map((item) => item.row), { timeoutMs, signal: controller.signal })
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true
        controller.abort()
        reject(new RecoverableError('timeout'))
      }, timeoutMs)
      timer.unref()
    })
    try {
      await Promise.race([sending, timeout])
      for (const item of batch) this.finish(item, { ok: true })
    } catch (error) {
      if (error instanceof RecoverableError) {
        this.metrics.add('retried', batch.length)
        this.queue.unshift(batch)
        this.blockedUntil = Date.now() + this.timing.resumeIntervalMs
      } else {
        for (const item of batch) this.finish(item, { error: errorText(error) })
      }
    } finally {
      clearTimeout(timer)
      this.inflight -= batch.length
    }
    // A target answering after the request was given up on is a late reply.
    if (timedOut) sending.then(() => this.metrics.add('late_reply', batch.length), () => undefined)
    this.pump()
  }

  private dropExpired(now: number): void {
    for (let head = this.queue.peek(); head && head.deadline !== undefined && head.deadline <= now; head = this.queue.peek()) {
      this.finish(this.queue.shift()!, { drop: 'expired' })
    }
  }

  private finish(item: QueuedRow, how: { ok: true } | { drop: DropReason } | { error: string }): void {
    if ('ok' in how) {
      this.metrics.add('success')
      item.done?.('ok')
    } else if ('drop' in how) {
      this.metrics.drop(how.drop)
      item.done?.(how.drop === 'resource_stopped' ? 'out_of_service' : { error: how.drop })
    } else {
      this.metrics.add('failed')
      item.done?.({ error: how.error })
    }
  }

  private wake(ms: number): void {
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.pump()
    }, ms)
    this.timer.unref()
  }

  /** Removed or disabled: what is still buffered is dropped as resource_stopped. */
  stop(): void {
    this.stopped = true
    clearTimeout(this.timer)
    clearInterval(this.healthTimer)
    this.unwatch()
    for (let item = this.queue.shift(); item; item = this.queue.shift()) this.finish(item, { drop: 'resource_stopped' })
  }
}

/** The size a row takes in the buffer: its JSON text, with bytes counted as they are. */
export function rowBytes(row: Record<string, unknown>): number {
  let binary = 0
  try {
    const text = JSON.stringify(row, function (this: Record<string, unknown>, key: string, value: unknown) {
      const raw = key === '' ? value : this[key]
      if (Buffer.isBuffer(raw)) {
        binary += raw.length
        return ''
      }
      return typeof value === 'bigint' ? value.toString() : value
    })
    return binary + Buffer.byteLength(text ?? '')
  } catch {
    return binary + 256
  }
}
