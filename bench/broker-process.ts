// The embedded server in a process of its own, for bench/broker.bench.ts: the load generator must not
// share its event loop. Reports its ports over IPC and answers memory questions (after a full GC).
// BENCH_CPU_PROF=<dir> runs it under `node --cpu-prof` (see broker.bench.ts).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../server/start.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'emqx-console-bench-'))
const server = await startServer({ port: 0, mqttPort: 0, wsPort: 0, host: '127.0.0.1', dataDir })

function memory() {
  const gc = (globalThis as { gc?: () => void }).gc
  for (let i = 0; i < 3; i++) gc?.()
  const { rss, heapUsed } = process.memoryUsage()
  return { rss, heapUsed }
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
