// `node server/main.ts`: read the environment, start the server, stop cleanly on SIGINT/SIGTERM.
import { bannerLines } from './banner.ts'
import { loadConfig } from './config.ts'
import { startServer } from './start.ts'

const config = loadConfig(process.env)
const server = await startServer(config)

const banner = bannerLines({
  address: server.address,
  port: server.port,
  broker: server.broker ? { mqttPort: server.mqttPort, wsPort: server.wsPort, dataDir: config.dataDir } : undefined,
  proxyTo: config.emqxApiUrl,
})
for (const line of banner) console.log(line)

let stopping = false
async function stop(signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  console.log(`${signal}: shutting down`)
  try {
    await server.close()
    process.exit(0)
  } catch (error) {
    console.error('shutdown failed:', error)
    process.exit(1)
  }
}
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))
