// The database drivers' connectors over server/backends: a backend is opened, checked with a real
// round trip, and given up (closed, with the driver's reason) when that fails, as EMQX's on_start
// fails when its pool cannot connect.
import type { ConnectionOptions } from 'node:tls'
import type { Backend } from '../../backends/resource.ts'
import { RecoverableError, type ResourceHealth } from '../driver.ts'
import { clientTlsOptions, parseClientSsl } from './client-tls.ts'

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

/**
 * A database connector's `ssl` (the client TLS group) as Node's TLS options for a server at `host`,
 * or undefined when TLS is off; a bad field or an unreadable certificate throws the 400's reason.
 * With several servers (a cluster, a sentinel) `host` is undefined: each connection names its own.
 */
export function clientTls(config: Record<string, unknown>, host: string | undefined): ConnectionOptions | undefined {
  const ssl = parseClientSsl(config.ssl)
  if (!ssl.enable) return undefined
  return clientTlsOptions(host === undefined && ssl.server_name_indication === undefined ? { ...ssl, server_name_indication: 'disable' } : ssl, host ?? '0.0.0.0')
}
