// The database drivers' connectors over server/backends: a backend is opened, checked with a real
// round trip, and given up (closed, with the driver's reason) when that fails, as EMQX's on_start
// fails when its pool cannot connect.
import type { Backend } from '../../backends/resource.ts'
import { RecoverableError, type ResourceHealth } from '../driver.ts'

export async function openChecked<B extends Backend>(backend: B): Promise<B> {
  const health = await backend.health()
  if (health.status !== 'connected') {
    await backend.close().catch(() => {})
    throw new Error(health.reason ?? 'not connected')
  }
  return backend
}

/** A backend's health as the resource layer reads it. */
export function backendHealth(backend: Backend): Promise<ResourceHealth> {
  return backend.health()
}

/** `work` within a send's time and abort signal; past them the rows are worth retrying. */
export function within<T>(work: Promise<T>, timeoutMs: number, signal: AbortSignal): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  let onAbort: (() => void) | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RecoverableError(`no answer in ${timeoutMs} ms`)), timeoutMs)
    onAbort = () => reject(new RecoverableError('aborted'))
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return Promise.race([work, limit]).finally(() => {
    clearTimeout(timer)
    signal.removeEventListener('abort', onAbort!)
  })
}

/** The backends open plain connections only: a connector asking for TLS is refused at start, not connected in the clear. */
export function refuseTls(config: Record<string, unknown>, target: string): void {
  const ssl = config.ssl as { enable?: unknown } | undefined
  if (ssl?.enable === true) throw new Error(`ssl: TLS to ${target} is not supported by this server yet`)
}
