// Log traces on the broker (emqx_trace): the saved traces, the clock that starts and stops them at
// their times (and after a restart), their files under `<data>/trace`, and the reads of those files.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, openSync, readSync, closeSync, fstatSync } from 'node:fs'
import { join } from 'node:path'
import type { TraceStatus } from '../../../contract/trace.ts'
import { TRACE_MAX_FILE_BYTES } from '../../../contract/trace.ts'
import type { Broker } from '../../broker/broker.ts'
import type { TraceHub } from '../../trace/hub.ts'
import type { TraceRecord, TraceRepository } from './store.ts'

/** EMQX looks again at least every 15 minutes, and at the next start or end. */
const MAX_WAIT_MS = 15 * 60 * 1000

export const nowSecond = () => Math.floor(Date.now() / 1000)

/** emqx_mgmt_api_trace:status/4. */
export function traceStatus(trace: TraceRecord, now = nowSecond()): TraceStatus {
  if (!trace.enable) return 'stopped'
  if (now < trace.startAt) return 'waiting'
  if (now >= trace.endAt) return 'stopped'
  return 'running'
}

/** `trace_<name>_<local date of start>.log`, as emqx_trace:filename/2. */
export function traceFileName(name: string, startAt: number): string {
  const d = new Date(startAt * 1000)
  const date = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
  return `trace_${name}_${date}.log`
}

export type ChunkRead = { kind: 'data'; bytes: Buffer } | { kind: 'eof'; size: number } | { kind: 'absent' }

/**
 * Whether an error is memory that could not be had: a buffer V8 could not allocate, or a string or
 * JSON text longer than V8 makes. 5.8 answers its `enomem` as 503 `Requested chunk size too big`.
 */
export function isOutOfMemory(error: unknown): boolean {
  if (error instanceof RangeError) return true
  const code = (error as { code?: unknown } | null)?.code
  return code === 'ERR_MEMORY_ALLOCATION_FAILED' || code === 'ERR_STRING_TOO_LONG' || code === 'ERR_BUFFER_TOO_LARGE'
}

export class TraceFeature {
  readonly repository: TraceRepository
  readonly node: string
  readonly dir: string
  private readonly hub: TraceHub
  private readonly maxFileBytes: number
  private timer: NodeJS.Timeout | undefined
  private stopped = false

  constructor(broker: Broker, repository: TraceRepository, hub: TraceHub, dataDir: string, maxFileBytes = TRACE_MAX_FILE_BYTES) {
    this.repository = repository
    this.hub = hub
    this.node = broker.node
    this.dir = join(dataDir, 'trace')
    this.maxFileBytes = maxFileBytes
  }

  start(): void {
    mkdirSync(this.dir, { recursive: true })
    this.update()
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.hub.stopAll()
  }

  path(trace: TraceRecord): string {
    return join(this.dir, traceFileName(trace.name, trace.startAt))
  }

  /** Starts the traces whose time has come, stops the others, and waits for the next start or end. */
  update(): void {
    if (this.stopped) return
    if (this.timer) clearTimeout(this.timer)
    const now = nowSecond()
    const traces = this.repository.list()
    const running = new Set<string>()
    mkdirSync(this.dir, { recursive: true })
    for (const trace of traces) {
      if (traceStatus(trace, now) !== 'running') continue
      running.add(trace.name)
      this.hub.start({ name: trace.name, type: trace.type, filter: trace.filter, payloadEncode: trace.payloadEncode, formatter: trace.formatter }, this.path(trace), this.maxFileBytes)
    }
    for (const name of this.hub.runningNames()) if (!running.has(name)) this.hub.stop(name)
    this.removeStaleFiles(traces)
    let waitMs = MAX_WAIT_MS
    for (const trace of traces) {
      if (!trace.enable) continue
      for (const at of [trace.startAt, trace.endAt]) if (at > now) waitMs = Math.min(waitMs, at * 1000 - Date.now())
    }
    this.timer = setTimeout(() => this.update(), Math.max(waitMs, 0))
    this.timer.unref()
  }

  /** clean_stale_trace_files: files of traces that no longer exist go. */
  private removeStaleFiles(traces: TraceRecord[]): void {
    const keep = new Set(traces.map((trace) => traceFileName(trace.name, trace.startAt)))
    for (const file of readdirSync(this.dir)) {
      if (!keep.has(file) && file.startsWith('trace_')) rmSync(join(this.dir, file), { force: true })
    }
  }

  stopTrace(name: string): boolean {
    if (!this.repository.disable(name)) return false
    this.update()
    return true
  }

  delete(name: string): boolean {
    if (!this.repository.delete(name)) return false
    this.update()
    return true
  }

  clear(): void {
    this.repository.clear()
    this.hub.stopAll()
    rmSync(this.dir, { recursive: true, force: true })
    this.update()
  }

  /** The file's size in bytes (0 before anything was written). */
  size(trace: TraceRecord): number {
    this.hub.flush(trace.name)
    const path = this.path(trace)
    return existsSync(path) ? statSync(path).size : 0
  }

  /** The file's size and change time in epoch seconds, or undefined when there is no file. */
  detail(trace: TraceRecord): { size: number; mtime: number } | undefined {
    this.hub.flush(trace.name)
    const path = this.path(trace)
    if (!existsSync(path)) return undefined
    const stat = statSync(path)
    return { size: stat.size, mtime: Math.floor(stat.mtimeMs / 1000) }
  }

  /** The whole file, or undefined when there is none. */
  content(trace: TraceRecord): { data: Buffer; mtime: number } | undefined {
    const detail = this.detail(trace)
    if (!detail) return undefined
    const data = this.readAt(trace, 0, detail.size)
    return { data: data.kind === 'data' ? data.bytes : Buffer.alloc(0), mtime: detail.mtime * 1000 }
  }

  /**
   * read_trace_file: up to `bytes` from `position`; eof with the size past the end. The buffer is
   * never larger than what the file holds from there, whatever `bytes` asks (5.8's file:read
   * allocates `bytes` and fails with enomem); a buffer that cannot be allocated throws, and
   * `isOutOfMemory` tells it.
   */
  readAt(trace: TraceRecord, position: number, bytes: number): ChunkRead {
    this.hub.flush(trace.name)
    const path = this.path(trace)
    if (!existsSync(path)) return { kind: 'absent' }
    const fd = openSync(path, 'r')
    try {
      const size = fstatSync(fd).size
      const length = Math.min(bytes, Math.max(size - position, 0))
      // file:read/2 of 0 bytes answers an empty binary, not eof.
      if (length === 0 && bytes > 0) return { kind: 'eof', size }
      // Filled by the read up to `read`; the rest is cut off.
      const buffer = Buffer.allocUnsafe(length)
      const read = readSync(fd, buffer, 0, length, position)
      return { kind: 'data', bytes: buffer.subarray(0, read) }
    } finally {
      closeSync(fd)
    }
  }
}
