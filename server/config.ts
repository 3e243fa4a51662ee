// Environment variables -> the server's configuration, with EMQX's own default ports.
import { fileURLToPath } from 'node:url'
import type { AlarmOptions } from './areas/alarms/feature.ts'
import type { SlowSubsOptions } from './areas/slow-subs/feature.ts'

/** The repository root, found from this file rather than the working directory. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/[\\/]$/, '')

/** Monitoring timings and watermarks, so tests can drive them quickly. */
export interface MonitoringOptions {
  /** Topic metrics' rate sampling period (EMQX: 1 s). */
  topicMetricsTickMs?: number
  /** Authenticators' rate sampling period (EMQX's metrics worker: 5 s). */
  authnMetricsTickMs?: number
  alarms?: AlarmOptions
  /** Slow subscriptions' clock and expiry sweep period (EMQX: 10 s). */
  slowSubs?: SlowSubsOptions
}

export interface Config {
  /** Console and REST API port (EMQX dashboard default). 0 picks a free port. */
  port: number
  /** MQTT over TCP. 0 picks a free port. */
  mqttPort: number
  /** MQTT over WebSocket, path /mqtt. 0 picks a free port. */
  wsPort: number
  /** The address the console, API and MQTT listeners bind to (`BIND`; `HOST` is its older name). 0.0.0.0 is every IPv4 interface. */
  host: string
  /** Where the SQLite database lives (embedded mode only). */
  dataDir: string
  /** When set, the console proxies /api/v5 to this EMQX and starts no broker. */
  emqxApiUrl: string | undefined
  /** Dashboard token lifetime since its last use (EMQX `dashboard.token_expired_time`). */
  tokenTtlMs: number
  /** The built console (Vite's output); served with SPA fallback when it holds an index.html. */
  consoleDir: string
  /** Serve the console's source maps (`*.map`); refused by default so the sources stay private. */
  serveSourceMaps: boolean
  /** The dashboard monitor's sample interval (EMQX `dashboard.sample_interval`, 10 s) and clock; for tests. */
  dashboardMonitor?: { sampleIntervalMs?: number; now?: () => number }
  /** Monitoring timings and watermarks (topic metrics rates, alarm checks); EMQX's defaults when absent. */
  monitoring?: MonitoringOptions
  /**
   * The log handlers on until the operator changes `log` (EMQX_DEFAULT_LOG_HANDLER): `console`,
   * `file` (EMQX's default, also when empty), `both`, or anything else for neither.
   */
  defaultLogHandler: string
  /** EMQX_LOG_DIR: the directory `${EMQX_LOG_DIR}` in a log file's path names; `<dataDir>/log` when unset. */
  logDir?: string
}

export const defaultConfig: Config = {
  port: 18083,
  mqttPort: 1883,
  wsPort: 8083,
  host: '0.0.0.0',
  dataDir: './data',
  emqxApiUrl: undefined,
  tokenTtlMs: 60 * 60 * 1000,
  consoleDir: `${REPO_ROOT}/dist`,
  serveSourceMaps: false,
  defaultLogHandler: 'file',
}

function portFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number (0-65535), got '${raw}'`)
  return port
}

function flagFrom(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase()
  if (raw === '' || raw === '0' || raw === 'false') return false
  if (raw === '1' || raw === 'true') return true
  throw new Error(`${name} must be 1 or 0 (true or false), got '${env[name]}'`)
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    ...defaultConfig,
    port: portFrom(env, 'PORT', defaultConfig.port),
    mqttPort: portFrom(env, 'MQTT_PORT', defaultConfig.mqttPort),
    wsPort: portFrom(env, 'WS_PORT', defaultConfig.wsPort),
    host: env.BIND || env.HOST || defaultConfig.host,
    dataDir: env.DATA_DIR || defaultConfig.dataDir,
    emqxApiUrl: env.EMQX_API_URL || undefined,
    serveSourceMaps: flagFrom(env, 'SOURCE_MAPS'),
    // `npm start` logs to its terminal unless told otherwise, as EMQX's Docker image does.
    defaultLogHandler: env.EMQX_DEFAULT_LOG_HANDLER ?? 'console',
    logDir: env.EMQX_LOG_DIR || undefined,
  }
}
