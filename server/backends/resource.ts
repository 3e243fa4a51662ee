// What every external backend (a database or directory the broker queries) tells about itself, as
// EMQX's resources do: connected, or disconnected with the reason, checked by a real round trip.
import type { ConnectionOptions } from 'node:tls'

export type BackendStatus = 'connected' | 'disconnected' | 'connecting'

export interface BackendHealth {
  status: BackendStatus
  /** Why it is not connected, in the driver's words. */
  reason?: string
}

export interface Backend {
  /** A real round trip to the server (a ping or `SELECT 1`), bounded by the backend's timeout. */
  health(): Promise<BackendHealth>
  close(): Promise<void>
}

/** A SQL database's connection settings, as EMQX's PostgreSQL and MySQL backends name them. */
export interface SqlConfig {
  /** `host[:port]`, the port defaulting per database. */
  server: string
  database: string
  username: string
  password?: string
  /** Connections in the pool (EMQX `pool_size`, 8). */
  pool_size?: number
  /** Milliseconds a query or a connection attempt may take. */
  timeoutMs?: number
  /** TLS to the server (a connector's client TLS group); undefined is plain TCP. */
  tls?: ConnectionOptions
}

/** `host:port` (`[v6]:port`) as EMQX's `server` field writes it, the port defaulting per backend. */
export function parseServer(server: string, defaultPort: number): { host: string; port: number } {
  const text = server.trim()
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text)
  if (v6) return { host: v6[1], port: v6[2] ? Number(v6[2]) : defaultPort }
  const [host, port, extra] = text.split(':')
  if (!host || extra !== undefined || (port !== undefined && !/^\d+$/.test(port))) throw new Error(`bad server address '${server}'`)
  return { host, port: port === undefined ? defaultPort : Number(port) }
}

/** A health check that answers within `ms`, whatever the driver does meanwhile. */
export async function checked(ms: number, probe: () => Promise<unknown>): Promise<BackendHealth> {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)
      }),
    ])
    return { status: 'connected' }
  } catch (error) {
    return { status: 'disconnected', reason: reasonOf(error) }
  } finally {
    clearTimeout(timer)
  }
}

/** A driver error's message, or the codes of an aggregate of them (a host with several addresses). */
export function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(reasonOf).join('; ')
  if (error instanceof Error) return error.message || (error as { code?: string }).code || error.name
  return String(error)
}
