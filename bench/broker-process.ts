// The embedded server in a process of its own, for bench/broker.bench.ts: the load generator must not
// share its event loop. Reports its ports over IPC and answers memory questions (after a full GC).
// BENCH_CPU_PROF=<dir> runs it under `node --cpu-prof` (see broker.bench.ts).
// With `bare` as its argument it is no broker at all: a plain node:net server that answers any bytes
// with a CONNACK, to show what 10,000 idle sockets cost Node itself.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getHeapSpaceStatistics } from 'node:v8'
import { startServer } from '../server/start.ts'

async function bareServer() {
  const sockets = new Set<Socket>()
  const tcp = createServer((socket) => {
    sockets.add(socket)
    socket.on('data', () => socket.write(Buffer.from([0x20, 0x02, 0x00, 0x00])))
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve))
  return {
    mqttPort: (tcp.address() as AddressInfo).port,
    url: '',
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => tcp.close(resolve))
    },
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'emqx-console-bench-'))
const server = process.argv[2] === 'bare' ? await bareServer() : await startServer({ port: 0, mqttPort: 0, wsPort: 0, host: '127.0.0.1', dataDir })

function memory() {
  const gc = (globalThis as { gc?: () => void }).gc
  for (let i = 0; i < 3; i++) gc?.()
  const { rss, heapUsed } = process.memoryUsage()
  // V8 grows its young generation with the allocation rate (a connection storm) and keeps it: empty
  // after a GC but resident, so the bench shows it apart from the live heap.
  const youngGeneration = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0
  return { rss, heapUsed, youngGeneration }
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
process.send?.({ type: 'ready', mqttPort: server.mqttPort, url: server.url })
