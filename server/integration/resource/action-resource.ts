// One action on this node (emqx_resource_buffer_worker), written once for every type: worker_pool_size
// buffer workers, each row going to the worker its pick key hashes to (the publishing client, as
// EMQX picks by the caller's process), so one client's rows keep their order. Each worker's buffer is
// bounded by max_buffer_bytes (the oldest dropped as queue_full); rows leave in batches (batch_size,
// batch_time) with at most inflight_window requests a worker (one when sync), rows older than
// request_ttl are dropped as expired, and a RecoverableError (or a timeout) puts the batch back for
// that worker to retry after resume_interval. While the connector is not connected nothing leaves.
import type { ActionOutcome } from '../../rules/engine/outputs.ts'
import { traceRendered, type ActionTraceContext } from '../../rules/engine/trace.ts'
import { RecoverableError, UnrecoverableError, type ActionDriver, type RenderTrace, type ResourceHealth } from '../driver.ts'
import type { ConnectorResource } from './connector-resource.ts'
import { BridgeCounters, type DropReason } from './metrics.ts'
import { RowQueue, type QueuedRow } from './row-queue.ts'
import { errorText, withTimeout } from './timing.ts'

export interface ActionTiming {
  batchSize: number
  batchTimeMs: number
  /** worker_pool_size: buffer workers, each with its own buffer. */
  workers: number
  /** Requests in flight at most a worker: inflight_window in async mode, one in sync mode. */
  inflightWindow: number
  /** request_ttl; undefined is infinity. */
  requestTtlMs: number | undefined
  maxBufferBytes: number
  resumeIntervalMs: number
  /** query_mode sync: a rule's send answers when the row was sent (or failed). */
  sync: boolean
  /** How often the action's own health (a driver's `health`) is checked while its connector is connected. */
  healthCheckMs: number
}

/** One buffer worker: its rows, its requests in flight, and when it may send again after a retry. */
class BufferWorker {
  readonly queue = new RowQueue()
  /** Requests in flight, held under inflight_window. */
  inflight = 0
  /** The rows those requests carry (EMQX's `inflight` gauge counts messages). */
  inflightRows = 0
  blockedUntil = 0
  timer: NodeJS.Timeout | undefined
}

/** Which worker a pick key goes to (gproc_pool's hash pick): the same key, the same worker. */
function workerIndex(key: string, workers: number): number {
  let hash = 0
  for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0
  return (hash >>> 0) % workers
}

/** The least time an action's health check is given, whatever its interval. */
const HEALTH_TIMEOUT_MIN_MS = 5_000

/** How long one request may take when request_ttl is infinity. */
const DEFAULT_REQUEST_TIMEOUT_MS = 45_000

/** The send a rule test stopped after rendering (5.8's EMQX_TRACE_STOP_ACTION). */
class StoppedAfterRender extends UnrecoverableError {}

export class ActionResource {
  readonly driver: ActionDriver
  readonly metrics: BridgeCounters
  /** `action:<type>:<name>:connector:<type>:<name>`, as 5.8's trace lines and messages name it. */
  readonly actionId: string
  private readonly connector: ConnectorResource
  private readonly prepared: unknown
  private readonly timing: ActionTiming
  private readonly workers: BufferWorker[]
  private stopped = false
  private readonly unwatch: () => void
  /** The driver's last answer about the action itself (a table that exists...); undefined without one. */
  private ownHealth: ResourceHealth | undefined
  private healthTimer: NodeJS.Timeout | undefined
  /** A health check under way: the next tick does not start another. */
  private checking = false

  /** `id` is the action's `<type>:<name>`. */
  constructor(driver: ActionDriver, prepared: unknown, connector: ConnectorResource, timing: ActionTiming, id = `${driver.type}:`) {
    this.driver = driver
    this.actionId = `action:${id}:connector:${connector.ctx.id}`
    this.prepared = prepared
    this.connector = connector
    this.timing = timing
    this.workers = Array.from({ length: Math.max(1, timing.workers) }, () => new BufferWorker())
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
    if (this.driver.health && conn !== undefined && !this.checking) {
      this.checking = true
      try {
        this.ownHealth = await withTimeout(this.driver.health(conn, this.prepared), Math.max(this.timing.healthCheckMs, HEALTH_TIMEOUT_MIN_MS), 'health check timeout')
      } catch (error) {
        this.ownHealth = { status: 'disconnected', reason: errorText(error) }
      } finally {
        this.checking = false
      }
    }
    this.pump()
  }

  gauges(): { queuing: number; queuing_bytes: number; inflight: number } {
    const sum = { queuing: 0, queuing_bytes: 0, inflight: 0 }
    for (const worker of this.workers) {
      sum.queuing += worker.queue.length
      sum.queuing_bytes += worker.queue.bytes
      sum.inflight += worker.inflightRows
    }
    return sum
  }

  /** The trace a batch's send reports what it rendered to, when one of its rows came with a trace context. */
  private renderTrace(rows: readonly ActionTraceContext[], stopped?: () => void): RenderTrace {
    const actionId = this.actionId
    return {
      actionId,
      async: !this.timing.sync,
      rendered: (result) => {
        traceRendered(rows, actionId, result, this.driver.rendersInCaller)
        if (rows[0].stopAfterRender) {
          stopped?.()
          throw new StoppedAfterRender(`Action ${actionId} stopped after template rendering due to test setting.`)
        }
      },
    }
  }

  /**
   * A rule test's row with stop_action_after_template_rendering: the driver's own send renders it,
   * reports it, and is stopped there before anything leaves (the action counts it matched and
   * failed). Answered at once when the driver renders before its first wait, as they all do.
   */
  stopAfterRender(row: Record<string, unknown>, trace: ActionTraceContext): ActionOutcome | Promise<ActionOutcome> {
    this.metrics.add('matched')
    this.metrics.add('failed')
    const stop: ActionOutcome = { error: `Action ${this.actionId} stopped after template rendering due to test setting.`, stoppedAfterRender: true }
    const conn = this.connector.connection
    // Not connected: nothing can render (5.8's query would wait in the buffer); the test still stops.
    if (conn === undefined) return stop
    let stopped = false
    const sending = this.driver.send(conn, this.prepared, [row], { timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS, signal: new AbortController().signal, trace: this.renderTrace([trace], () => (stopped = true)) })
    const settled = sending.then(
      (): ActionOutcome => stop,
      (error: unknown): ActionOutcome => (stopped ? stop : { error: errorText(error) }),
    )
    return stopped ? stop : settled
  }

  /**
   * A rule's selected row: queued on its worker, then sent; in sync mode the answer waits for the
   * send. `pickKey` (the publishing client's id) chooses the worker; without one, the first worker.
   * `trace` comes only while a trace runs: the driver then reports what it rendered.
   */
  query(row: Record<string, unknown>, pickKey?: string, trace?: ActionTraceContext): ActionOutcome | Promise<ActionOutcome> {
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
    if (trace !== undefined) item.trace = trace
    const answer = this.timing.sync ? new Promise<ActionOutcome>((resolve) => (item.done = resolve)) : 'ok'
    const worker = this.workers[pickKey === undefined ? 0 : workerIndex(pickKey, this.workers.length)]
    const queue = worker.queue
    queue.push(item)
    while (queue.bytes > this.timing.maxBufferBytes && queue.length > 1) this.finish(queue.shift()!, { drop: 'queue_full' })
    this.pumpWorker(worker)
    return answer
  }

  /** Takes what it can from every worker's buffer and sends it. */
  pump(): void {
    for (const worker of this.workers) this.pumpWorker(worker)
  }

  private pumpWorker(worker: BufferWorker): void {
    if (this.stopped) return
    const now = Date.now()
    if (now < worker.blockedUntil) return this.wake(worker, worker.blockedUntil - now)
    const conn = this.connector.connection
    // Nothing leaves while the connector is down or the target says the action cannot work.
    if (conn === undefined || (this.ownHealth && this.ownHealth.status !== 'connected')) return
    const queue = worker.queue
    while (worker.inflight < this.timing.inflightWindow && queue.length > 0) {
      this.dropExpired(queue, now)
      if (queue.length === 0) break
      const head = queue.peek()!
      if (queue.length < this.timing.batchSize && now < head.queuedAt + this.timing.batchTimeMs) {
        this.wake(worker, head.queuedAt + this.timing.batchTimeMs - now)
        break
      }
      void this.send(worker, conn, queue.take(this.timing.batchSize))
    }
  }

  private async send(worker: BufferWorker, conn: unknown, batch: QueuedRow[]): Promise<void> {
    worker.inflight += 1
    worker.inflightRows += batch.length
    const deadlines = batch.map((item) => item.deadline ?? Infinity)
    const soonest = Math.min(...deadlines)
    const timeoutMs = soonest === Infinity ? DEFAULT_REQUEST_TIMEOUT_MS : Math.max(1, soonest - Date.now())
    const controller = new AbortController()
    let timedOut = false
    let timer: NodeJS.Timeout | undefined
    let traced: ActionTraceContext[] | undefined
    const rows = batch.map((item) => {
      if (item.trace !== undefined) (traced ??= []).push(item.trace)
      return item.row
    })
    const trace = traced === undefined ? undefined : this.renderTrace(traced)
    const sending = this.driver.send(conn, this.prepared, rows, { timeoutMs, signal: controller.signal, trace })
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
        for (const item of batch) item.resent = true
        worker.queue.unshift(batch)
        worker.blockedUntil = Date.now() + this.timing.resumeIntervalMs
      } else {
        for (const item of batch) this.finish(item, { error: errorText(error) })
      }
    } finally {
      clearTimeout(timer)
      worker.inflight -= 1
      worker.inflightRows -= batch.length
    }
    // A target answering after the request was given up on is a late reply.
    if (timedOut) sending.then(() => this.metrics.add('late_reply', batch.length), () => undefined)
    this.pumpWorker(worker)
  }

  private dropExpired(queue: RowQueue, now: number): void {
    for (let head = queue.peek(); head && head.deadline !== undefined && head.deadline <= now; head = queue.peek()) {
      this.finish(queue.shift()!, { drop: 'expired' })
    }
  }

  private finish(item: QueuedRow, how: { ok: true } | { drop: DropReason } | { error: string }): void {
    if ('ok' in how) {
      this.metrics.answered('success', item.resent === true)
      item.done?.('ok')
    } else if ('drop' in how) {
      this.metrics.drop(how.drop)
      item.done?.(how.drop === 'resource_stopped' ? 'out_of_service' : { error: how.drop })
    } else {
      this.metrics.answered('failed', item.resent === true)
      item.done?.({ error: how.error })
    }
  }

  private wake(worker: BufferWorker, ms: number): void {
    if (worker.timer) return
    worker.timer = setTimeout(() => {
      worker.timer = undefined
      this.pumpWorker(worker)
    }, ms)
    worker.timer.unref()
  }

  /** Removed or disabled: what is still buffered is dropped as resource_stopped. */
  stop(): void {
    this.stopped = true
    clearInterval(this.healthTimer)
    this.unwatch()
    for (const worker of this.workers) {
      clearTimeout(worker.timer)
      for (let item = worker.queue.shift(); item; item = worker.queue.shift()) this.finish(item, { drop: 'resource_stopped' })
    }
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
