// `node server/main.ts`: read the environment, start the server, stop cleanly on SIGINT/SIGTERM.
import { loadConfig } from './config.ts'
import { startServer } from './start.ts'

const config = loadConfig(process.env)
const server = await startServer(config)

if (server.broker) {
  console.log(`EMQX Console (embedded broker) at ${server.url}`)
  console.log(`  MQTT over TCP        mqtt://${new URL(server.url).hostname}:${server.mqttPort}`)
  console.log(`  MQTT over WebSocket  ws://${new URL(server.url).hostname}:${server.wsPort}/mqtt`)
  console.log(`  data in ${config.dataDir}; first login admin / public`)
} else {
  console.log(`EMQX Console at ${server.url}, proxying /api/v5 to ${config.emqxApiUrl}`)
}

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
