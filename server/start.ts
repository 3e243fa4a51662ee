// Starts the whole server in-process: embedded (broker + store + API + console) or proxy to EMQX.
import { resolve } from 'node:path'
import { Broker } from './broker/broker.ts'
import { installFeatures } from './broker/features/index.ts'
import { MonitorSampler } from './broker/monitor.ts'
import { loadMqttSettings, loadSysTopics } from './broker/settings.ts'
import { defaultConfig, REPO_ROOT, type Config } from './config.ts'
import { Auth } from './http/auth.ts'
import { buildEmbeddedApp, buildProxyApp } from './http/app.ts'
import { openDatabase } from './store/db.ts'
import { MonitorRepository } from './store/monitor.ts'
import { SettingsRepository } from './store/settings.ts'
import { TokenRepository } from './store/tokens.ts'
import { UserRepository } from './store/users.ts'

export interface RunningServer {
  /** Console and REST API port. */
  port: number
  /** MQTT/TCP port (0 in proxy mode: no broker). */
  mqttPort: number
  /** MQTT/WebSocket port, path /mqtt (0 in proxy mode: no broker). */
  wsPort: number
  /** Base URL of the console, e.g. http://127.0.0.1:18083 */
  url: string
  /** The address the listeners are bound to, as the socket reports it (0.0.0.0, ::, 127.0.0.1, ...). */
  address: string
  /** The embedded broker (absent in proxy mode). */
  broker?: Broker
  /** The dashboard monitor's sampler (absent in proxy mode). */
  monitor?: MonitorSampler
  close(): Promise<void>
}

function urlFor(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  return `http://${shown}:${port}`
}

export async function startServer(config: Partial<Config>): Promise<RunningServer> {
  const settings: Config = { ...defaultConfig, ...config }

  if (settings.emqxApiUrl) {
    const app = await buildProxyApp(settings.emqxApiUrl, settings.consoleDir, { serveSourceMaps: settings.serveSourceMaps })
    await app.listen({ port: settings.port, host: settings.host })
    const port = app.server.address() as { port: number; address: string }
    return { port: port.port, mqttPort: 0, wsPort: 0, url: urlFor(settings.host, port.port), address: port.address, close: () => app.close() }
  }

  const dataDir = resolve(settings.dataDir)
  const db = openDatabase(dataDir)
  // The MQTT and $SYS settings changed through /configs survive a restart.
  const stored = new SettingsRepository(db)
  const broker = new Broker({}, loadMqttSettings(stored.get('mqtt')))
  broker.configureSysTopics(loadSysTopics(stored.get('sys_topics')))
  const features = installFeatures(broker, db, { monitoring: settings.monitoring })
  const monitor = new MonitorSampler(broker, new MonitorRepository(db), {
    intervalMs: settings.dashboardMonitor?.sampleIntervalMs ?? 10_000,
    now: settings.dashboardMonitor?.now ?? Date.now,
  })
  let app: Awaited<ReturnType<typeof buildEmbeddedApp>> | undefined
  try {
    const users = new UserRepository(db)
    await users.ensureDefaultUser()
    const tokens = new TokenRepository(db)
    const auth = new Auth({ tokens, ttlMs: settings.tokenTtlMs })
    const { tcpPort, wsPort } = await broker.listen({ host: settings.host, tcpPort: settings.mqttPort, wsPort: settings.wsPort })
    monitor.start()
    app = await buildEmbeddedApp({ broker, features, monitor, db, users, tokens, auth, paths: { sysPath: REPO_ROOT, logPath: 'not logging to file (stdout only)' } }, settings.consoleDir, { serveSourceMaps: settings.serveSourceMaps })
    await app.listen({ port: settings.port, host: settings.host })
    const { port, address } = app.server.address() as { port: number; address: string }
    const running = app
    let closing: Promise<void> | undefined
    return {
      port,
      mqttPort: tcpPort,
      wsPort,
      url: urlFor(settings.host, port),
      address,
      broker,
      monitor,
      close: () =>
        (closing ??= (async () => {
          await running.close()
          monitor.stop()
          await broker.close()
          features.stop()
          db.close()
        })()),
    }
  } catch (error) {
    await app?.close()
    monitor.stop()
    await broker.close()
    features.stop()
    db.close()
    throw error
  }
}
