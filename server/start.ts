// Starts the whole server in-process: embedded (broker + store + API + console) or proxy to EMQX.
import { resolve } from 'node:path'
import { installAreas, migrationsOf, type InstalledAreas } from './areas/area.ts'
import { serverAreas } from './areas/index.ts'
import type { MonitorSampler } from './areas/monitor/feature.ts'
import { monitorArea } from './areas/monitor/index.ts'
import { Broker } from './broker/broker.ts'
import { defaultConfig, REPO_ROOT, type Config } from './config.ts'
import { buildEmbeddedApp, buildProxyApp } from './http/app.ts'
import { openDatabase } from './store/db.ts'
import { FeatureConfigRepository } from './store/feature-config.ts'

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
  const db = openDatabase(dataDir, migrationsOf(serverAreas))
  const broker = new Broker()
  let areas: InstalledAreas | undefined
  let app: Awaited<ReturnType<typeof buildEmbeddedApp>> | undefined
  try {
    areas = installAreas(serverAreas, {
      broker,
      db,
      configs: new FeatureConfigRepository(db),
      config: settings,
      paths: { sysPath: REPO_ROOT, logPath: 'log.file.enable is false, not logging to file.' },
    })
    const { tcpPort, wsPort } = await broker.listen({ host: settings.host, tcpPort: settings.mqttPort, wsPort: settings.wsPort })
    await areas.start()
    app = await buildEmbeddedApp(serverAreas, areas.context, settings.consoleDir, { serveSourceMaps: settings.serveSourceMaps })
    await app.listen({ port: settings.port, host: settings.host })
    const { port, address } = app.server.address() as { port: number; address: string }
    const running = app
    const installed = areas
    let closing: Promise<void> | undefined
    return {
      port,
      mqttPort: tcpPort,
      wsPort,
      url: urlFor(settings.host, port),
      address,
      broker,
      monitor: areas.context.use(monitorArea),
      close: () =>
        (closing ??= (async () => {
          await running.close()
          await broker.close()
          installed.stop()
          db.close()
        })()),
    }
  } catch (error) {
    await app?.close()
    await broker.close()
    areas?.stop()
    db.close()
    throw error
  }
}
