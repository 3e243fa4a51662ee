// One broker in a process of its own, for bench/broker.bench.ts: the load generator must not share
// its event loop. Reports its MQTT port over IPC and answers memory questions (after a full GC).
//   embedded (default)  this project's server
//   aedes               aedes, the maintained Node MQTT broker, as a peer under the same Node flags
//   bare                no broker at all: a plain node:net server that answers any bytes with a
//                       CONNACK, to show what idle sockets cost Node itself
// BENCH_CPU_PROF=<dir> runs it under `node --cpu-prof` (see broker.bench.ts).
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getHeapSpaceStatistics } from 'node:v8'
import { startServer } from '../server/start.ts'

export type BrokerKind = 'embedded' | 'aedes' | 'bare'

interface Running {
  mqttPort: number
  /** The embedded server's console and REST API. */
  httpPort?: number
  close(): Promise<void>
}

/** Listens on a free local port; close() also ends the sockets still open. */
async function listen(server: Server, sockets: Set<Socket>): Promise<Running> {
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    mqttPort: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

function bareServer(): Promise<Running> {
  const tcp = createServer((socket) => {
    socket.on('data', () => socket.write(Buffer.from([0x20, 0x02, 0x00, 0x00])))
    socket.on('error', () => {})
  })
  return listen(tcp, new Set())
}

async function aedesServer(): Promise<Running> {
  const { Aedes } = await import('aedes')
  const aedes = await Aedes.createBroker()
  const running = await listen(createServer(aedes.handle), new Set())
  return { mqttPort: running.mqttPort, close: async () => (await running.close(), await new Promise<void>((resolve) => aedes.close(() => resolve()))) }
}

async function embeddedServer(dataDir: string): Promise<Running> {
  const server = await startServer({ port: 0, mqttPort: 0, wsPort: 0, host: '127.0.0.1', dataDir })
  return { mqttPort: server.mqttPort, httpPort: server.port, close: () => server.close() }
}

const kind = (process.argv[2] ?? 'embedded') as BrokerKind
const dataDir = mkdtempSync(join(tmpdir(), 'emqx-console-bench-'))
const server = kind === 'bare' ? await bareServer() : kind === 'aedes' ? await aedesServer() : await embeddedServer(dataDir)

function memory() {
  const gc = (globalThis as { gc?: () => void }).gc
  for (let i = 0; i < 3; i++) gc?.()
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage()
  // V8 grows its young generation with the allocation rate (a connection storm) and keeps it: empty
  // after a GC but resident, so the bench shows it apart from the live heap.
  const youngGeneration = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0
  return { rss, heapUsed, youngGeneration, heapTotal, external }
}

process.on('message', async (message: { type: string }) => {
  if (message.type === 'memory') process.send?.({ type: 'memory', ...memory() })
  if (message.type === 'stop') {
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
    process.disconnect?.()
    process.exit(0)
  }
})
process.send?.({ type: 'ready', mqttPort: server.mqttPort, httpPort: server.httpPort })
