// Follows a trace's log as EMQX 5.8's dashboard reads it: `/trace/{name}/log` by byte position,
// reading on from where the last chunk ended. Headless: the trace.follow command and the detail
// screen both read through it. Ends when the signal aborts, or once the trace has stopped (or is
// gone) and everything written has been read.
import type { Api } from '../src/api/index.ts'
import { ApiError } from '../contract/api-error.ts'
import { sleep } from './sleep.ts'

/** What one read asks for: the dashboard's page size. */
export const TRACE_FOLLOW_BYTES = 50 * 1024
/** How long an empty read waits before the next. */
export const TRACE_FOLLOW_INTERVAL_MS = 1000

export type FollowEnd = 'stopped' | 'gone' | 'aborted'

export interface FollowOptions {
  signal: AbortSignal
  /** Whole lines as they arrive (a chunk cut inside a line is kept until the rest comes). */
  onLines(lines: string[]): void
  /** Where to start reading (a screen resuming): 0 by default. */
  position?: number
  /** Told the position after each chunk read (a screen decides when a log is too long to show). */
  onPosition?(position: number): void
  intervalMs?: number
  bytes?: number
  /** Whose file to read (a cluster keeps one per node): the answering node's by default. */
  node?: string
}

async function traceStatus(api: Api, name: string, signal: AbortSignal): Promise<'running' | 'stopped' | 'gone'> {
  const trace = (await api.trace.list(signal)).find((t) => t.name === name)
  if (!trace) return 'gone'
  return trace.status === 'stopped' ? 'stopped' : 'running'
}

export async function followTraceLog(api: Api, name: string, options: FollowOptions): Promise<FollowEnd> {
  const { signal, onLines } = options
  const interval = options.intervalMs ?? TRACE_FOLLOW_INTERVAL_MS
  let position = options.position ?? 0
  let partial = ''
  const flush = (final: boolean) => {
    const lines = partial.split('\n')
    partial = lines.pop() ?? ''
    if (final && partial !== '') lines.push(partial)
    if (lines.length) onLines(lines)
  }
  try {
    for (;;) {
      if (signal.aborted) return 'aborted'
      // Asked before the read: a trace seen stopped has written its last line, so an empty read after it is the end.
      const status = await traceStatus(api, name, signal)
      if (status === 'gone') return 'gone'
      let page
      try {
        page = await api.trace.log(name, { position, bytes: options.bytes ?? TRACE_FOLLOW_BYTES, node: options.node }, signal)
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return 'gone'
        throw error
      }
      if (page.items !== '') {
        partial += page.items
        position = page.meta.position
        options.onPosition?.(position)
        flush(false)
        continue
      }
      if (status === 'stopped') return 'stopped'
      await sleep(interval, signal)
    }
  } catch (error) {
    if (signal.aborted) return 'aborted'
    throw error
  } finally {
    flush(true)
  }
}
