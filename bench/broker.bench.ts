// The embedded broker under load, next to Debian's mosquitto (when installed) and aedes (the
// maintained Node MQTT broker) in the same run, and the REST API with 1,000 clients. Each broker runs
// in a process of its own (bench/broker-process.ts; the Node ones with the server's Node flags) and
// the load comes from another (bench/mqtt-load.ts), so neither shares an event loop with the other.
//   BENCH_SECONDS=<n>      measured seconds per load case (default 4, after a 1 s warm-up)
//   BENCH_CPU_PROF=<dir>   runs the embedded broker under `node --cpu-prof`, profiles written to <dir>
//   BENCH_NO_MOSQUITTO=1   skips mosquitto even when installed
//   BENCH_NO_AEDES=1       skips aedes
//   BENCH_CASES=<text>     only the load cases whose label contains <text> (e.g. "fan-in"), and no memory case
//   BENCH_MEMORY_ONLY=1    only the memory cases
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import mqtt, { type MqttClient } from 'mqtt'
import { SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs'
import { startServer } from '../server/start.ts'
import { BrokerCrash, holdIdleClients, load, mosquittoInstalled, startMosquitto, startNodeBroker, type Target } from './broker-targets.ts'
import type { Job, LoadResult } from './mqtt-load.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const IDLE_CONNECTIONS = 10_000
const CHURN_CONNECTIONS = 100_000
/** Idle memory is read on this many fresh brokers of each kind and the median shown (one reading varies by 10-20%). */
const MEMORY_RUNS = 3
/**
 * Connections each broker opens and closes before idle memory is read, so that what is made once
 * (the code the connect path compiles, caches, tables sized on first use) is not counted per connection.
 */
const WARMUP_CONNECTIONS = 1000
/** Memory the broker holds for `connections` idle MQTT connections, measured between two full GCs. */
async function idleMemory(target: Target, connections: number): Promise<MemoryGrowth> {
  const before = await target.memory()
  const release = await holdIdleClients(target, connections)
  await new Promise((resolve) => setTimeout(resolve, 500))
  const after = await target.memory()
  await release()
  return growth(before, after)
}

/** idleMemory on `MEMORY_RUNS` fresh brokers: the median run by RSS, with every run's RSS. */
async function idleMemoryOfFresh(start: () => Promise<Target>): Promise<{ name: string; figures: MemoryGrowth & { runs: number[] } }> {
  const runs: MemoryGrowth[] = []
  let name = ''
  for (let i = 0; i < MEMORY_RUNS; i++) {
    const target = await start()
    name = target.name
    try {
      await idleMemory(target, WARMUP_CONNECTIONS)
      runs.push(await idleMemory(target, IDLE_CONNECTIONS))
    } finally {
      await target.stop()
    }
  }
  runs.sort((a, b) => a.rss - b.rss)
  return { name, figures: { ...runs[Math.floor(runs.length / 2)], runs: runs.map((run) => run.rss) } }
}

interface Memory {
  rss: number
  heapUsed?: number
  youngGeneration?: number
}
interface MemoryGrowth {
  rss: number
  heap: number | undefined
  young: number | undefined
}

function growth(before: Memory, after: Memory): MemoryGrowth {
  return {
    rss: after.rss - before.rss,
    heap: after.heapUsed !== undefined && before.heapUsed !== undefined ? after.heapUsed - before.heapUsed : undefined,
    young: after.youngGeneration,
  }
}

/** What stays after `connections` clients connected and left, from a fresh broker: nothing should. */
async function churnMemory(target: Target, connections: number): Promise<MemoryGrowth & { perSecond: number }> {
  const before = await target.memory()
  const { perSecond } = await load(target, { kind: 'churn', port: target.port, connections })
  await new Promise((resolve) => setTimeout(resolve, 1000))
  return { ...growth(before, await target.memory()), perSecond }
}

const ALL_CASES: Array<{ label: string; job: (port: number) => Job }> = [
  { label: 'fan-in QoS 0: 100 publishers -> 1 subscriber', job: (port) => ({ kind: 'fan-in', port, qos: 0, publishers: 100, window: 1000, seconds: SECONDS }) },
  { label: 'fan-in QoS 1: 100 publishers -> 1 subscriber', job: (port) => ({ kind: 'fan-in', port, qos: 1, publishers: 100, window: 1000, seconds: SECONDS }) },
  {
    label: 'fan-in QoS 1 flood: 50 publishers x 20 in flight -> 1 subscriber acking at once',
    job: (port) => ({ kind: 'flood', port, publishers: 50, inflight: 20, seconds: SECONDS }),
  },
  { label: 'fan-out QoS 0: 1 publisher -> 100 subscribers', job: (port) => ({ kind: 'fan-out', port, qos: 0, subscribers: 100, window: 10, seconds: SECONDS }) },
  { label: 'fan-out QoS 1: 1 publisher -> 100 subscribers', job: (port) => ({ kind: 'fan-out', port, qos: 1, subscribers: 100, window: 10, seconds: SECONDS }) },
  { label: 'latency QoS 1: 1 -> 1 at 1,000 msg/s', job: (port) => ({ kind: 'latency', port, qos: 1, rate: 1000, seconds: SECONDS }) },
]

/** p50 / p99; a percentile whose messages had not arrived 3 s after the run reads "late". */
const latencyText = (result: LoadResult | undefined) => (result ? `${result.p50 ?? 'late'} / ${result.p99 ?? 'late'}` : '-')
const CASES = process.env.BENCH_MEMORY_ONLY ? [] : ALL_CASES.filter(({ label }) => !process.env.BENCH_CASES || label.includes(process.env.BENCH_CASES))

const mb = (bytes: number) => +(bytes / 1024 / 1024).toFixed(1)
const ratio = (ours: number, theirs: number | undefined) => (theirs ? +(ours / theirs).toFixed(2) : '-')
const PEERS = ['mosquitto', 'aedes'] as const

async function brokerTable(): Promise<void> {
  const targets: Array<() => Promise<Target>> = [() => startNodeBroker('embedded')]
  if (mosquittoInstalled()) targets.push(startMosquitto)
  else console.log('mosquitto is not installed (apt-get install -y mosquitto): no mosquitto figures')
  if (!process.env.BENCH_NO_AEDES) targets.push(() => startNodeBroker('aedes'))
  const results = new Map<string, Map<string, LoadResult & { brokerCpu: number }>>()
  const memory = new Map<string, MemoryGrowth & { runs: number[] }>()
  const churn = new Map<string, MemoryGrowth & { perSecond: number }>()
  /** `<case>/<broker>` -> the error the broker died of. */
  const crashes = new Map<string, string>()
  for (const start of targets) {
    // Memory on fresh brokers of its own, so the load cases' garbage does not blur it.
    if (!process.env.BENCH_CASES) {
      const { name, figures } = await idleMemoryOfFresh(start)
      memory.set(name, figures)
    }
    let target = await start()
    try {
      for (const { label, job } of CASES) {
        const byTarget = results.get(label) ?? new Map()
        results.set(label, byTarget)
        try {
          byTarget.set(target.name, await load(target, job(target.port)))
        } catch (error) {
          if (!(error instanceof BrokerCrash)) throw error
          // Shown as such in the table; the next case gets a fresh broker.
          crashes.set(`${label}/${target.name}`, error.message)
          await target.stop()
          target = await start()
        }
      }
    } finally {
      await target.stop()
    }
    if (process.env.BENCH_CASES) continue
    // Churn on a broker of its own, fresh, so the load cases' garbage does not count.
    const fresh = await start()
    try {
      churn.set(fresh.name, await churnMemory(fresh, CHURN_CONNECTIONS))
    } finally {
      await fresh.stop()
    }
  }

  console.log(`\nMQTT 3.1.1, 64-byte payloads, ${SECONDS} s per case after a 1 s warm-up; the load generator is a separate process.`)
  console.log('msg/s: messages received by subscribers (the flood case: published is what the broker took in). Latency: publish ->')
  console.log('receive in the load process, under that load, over every message sent in the measured window (the flood case: over')
  console.log('those delivered). CPU in cores (2 on this machine): a load CPU near 1 means the load generator, not the broker, was')
  console.log('the limit. lost: given up after 3 s without progress; late: not arrived 3 s after the window. vs: our msg/s over theirs.')
  console.table(
    CASES.map(({ label }) => {
      const byTarget = results.get(label)!
      const ours = byTarget.get('embedded')
      if (!ours) return { case: label, 'msg/s': `crashed: ${crashes.get(`${label}/embedded`)}` }
      const row: Record<string, string | number> = { case: label, 'msg/s': ours.perSecond }
      if (label.includes('flood')) row['msg/s'] = `${ours.perSecond} (published ${ours.publishedPerSecond})`
      for (const peer of PEERS) {
        const theirs = byTarget.get(peer)
        const crash = crashes.get(`${label}/${peer}`)
        row[`${peer} msg/s`] = crash
          ? `crashed: ${crash}`
          : theirs
            ? label.includes('flood')
              ? `${theirs.perSecond} (published ${theirs.publishedPerSecond})`
              : theirs.perSecond
            : '-'
        row[`vs ${peer}`] = ratio(ours.perSecond, theirs?.perSecond)
      }
      row['p50 / p99 ms'] = latencyText(ours)
      for (const peer of PEERS) row[`${peer} p50 / p99`] = latencyText(byTarget.get(peer))
      row['CPU broker / load'] = `${ours.brokerCpu} / ${ours.loadCpu}`
      row['lost / late'] = [ours, ...PEERS.map((peer) => byTarget.get(peer))].map((r) => (r ? `${r.lost}/${r.late}` : '-')).join(', ')
      return row
    }),
  )
  console.log('lost / late: ours, mosquitto, aedes.')
  const ours = memory.get('embedded')
  if (!ours) return
  // What Node's own sockets cost, with no MQTT at all (and the same Node flags): the floor under the Node brokers.
  const { figures: bare } = await idleMemoryOfFresh(() => startNodeBroker('bare'))
  const bareChurnTarget = await startNodeBroker('bare')
  churn.set('plain node:net, no MQTT (Node floor)', await churnMemory(bareChurnTarget, CHURN_CONNECTIONS).finally(() => bareChurnTarget.stop()))
  const perConnection = (bytes: number | undefined) => (bytes === undefined ? '-' : Math.round(bytes / IDLE_CONNECTIONS))
  console.log(`\nMemory: growth after full GCs; idle connections: from a broker that opened and closed ${WARMUP_CONNECTIONS.toLocaleString('en')} connections first, the median of ${MEMORY_RUNS} fresh brokers. Node brokers run with ${SERVER_NODE_FLAGS.join(' ')}. After churn,`)
  console.log('the heap shows what accumulates; RSS is the allocator keeping its high-water mark (it does not grow with the count).')
  console.table([
    ...[['embedded', ours], ...PEERS.map((peer) => [peer, memory.get(peer)] as const), ['plain node:net, no MQTT (Node floor)', bare]].map(
      ([name, figures]) => {
        const m = figures as (MemoryGrowth & { runs: number[] }) | undefined
        return {
          case: `${IDLE_CONNECTIONS.toLocaleString('en')} idle connections: ${name}`,
          'RSS MB': m ? mb(m.rss) : '-',
          'heap MB': m?.heap !== undefined ? mb(m.heap) : '-',
          'bytes/connection (RSS)': m ? perConnection(m.rss) : '-',
          'bytes/connection (heap)': perConnection(m?.heap),
          'vs Node floor (RSS)': m ? ratio(m.rss, bare.rss) : '-',
          'young gen MB': m?.young !== undefined ? mb(m.young) : '-',
          [`RSS bytes/connection, ${MEMORY_RUNS} runs`]: m ? m.runs.map(perConnection).join(' ') : '-',
        }
      },
    ),
    ...[...churn.entries()].map(([name, figures]) => {
      const m = figures as (MemoryGrowth & { perSecond: number }) | undefined
      return {
        case: `after ${CHURN_CONNECTIONS.toLocaleString('en')} connects and disconnects: ${name}${m ? ` (${m.perSecond}/s)` : ''}`,
        'RSS MB': m ? mb(m.rss) : '-',
        'heap MB': m?.heap !== undefined ? mb(m.heap) : '-',
        'bytes/connection (RSS)': '-',
        'bytes/connection (heap)': '-',
        'vs Node floor (RSS)': '-',
        'young gen MB': m?.young !== undefined ? mb(m.young) : '-',
      }
    }),
  ])
}

function connect(url: string, clientId: string): Promise<MqttClient> {
  const client = mqtt.connect(url, { clientId, reconnectPeriod: 0 })
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client))
    client.once('error', reject)
  })
}

async function timed(label: string, runs: number, work: () => Promise<unknown>) {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await work()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return { case: label, runs, 'median ms': +times[Math.floor(runs / 2)].toFixed(1), 'p90 ms': +times[Math.floor(runs * 0.9)].toFixed(1) }
}

/** REST list latency with 1,000 connected clients (server in-process: only HTTP is timed here). */
async function restTable(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'emqx-console-bench-'))
  const server = await startServer({ port: 0, mqttPort: 0, wsPort: 0, host: '127.0.0.1', dataDir })
  const url = `mqtt://127.0.0.1:${server.mqttPort}`
  try {
    const clients = await Promise.all(Array.from({ length: 1000 }, (_, i) => connect(url, `bench-idle-${i}`)))
    const login = await fetch(`${server.url}/api/v5/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'public' }),
    })
    const { token } = (await login.json()) as { token: string }
    const get = (path: string) => fetch(`${server.url}/api/v5${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())
    console.table([
      await timed('GET /clients?limit=100 (1,000 clients)', 50, () => get('/clients?limit=100')),
      await timed('GET /clients?limit=1000 (1,000 clients)', 20, () => get('/clients?limit=1000')),
      await timed('GET /clients?like_clientid=idle-99', 50, () => get('/clients?like_clientid=idle-99')),
      await timed('GET /metrics?aggregate=true', 50, () => get('/metrics?aggregate=true')),
    ])
    await Promise.all(clients.map((client) => client.endAsync()))
  } finally {
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export default async function run(): Promise<void> {
  await brokerTable()
  if (!process.env.BENCH_CASES && !process.env.BENCH_MEMORY_ONLY) await restTable()
}
