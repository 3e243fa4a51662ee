// The embedded broker under load, next to Debian's mosquitto when it is installed, and the REST API
// with 1,000 clients. The broker runs in a process of its own (bench/broker-process.ts) and the load
// comes from another (bench/mqtt-load.ts), so neither shares an event loop with the other.
//   BENCH_SECONDS=<n>      measured seconds per load case (default 4, after a 1 s warm-up)
//   BENCH_CPU_PROF=<dir>   runs the embedded broker under `node --cpu-prof`, profiles written to <dir>
//   BENCH_NO_MOSQUITTO=1   skips mosquitto even when installed
//   BENCH_CASES=<text>     only the load cases whose label contains <text> (e.g. "fan-in"), and no memory case
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect as netConnect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import mqtt, { type MqttClient } from 'mqtt'
import { startServer } from '../server/start.ts'
import type { Job, LoadResult } from './mqtt-load.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const IDLE_CONNECTIONS = 10_000
const here = new URL('.', import.meta.url)
/** Node flags the bench itself runs with (type stripping, SQLite), for the child processes. */
const nodeFlags = process.execArgv.filter((flag) => !flag.startsWith('--cpu-prof'))

interface Target {
  name: string
  port: number
  pid: number
  /** Resident memory, and the JS heap and V8's young generation where there are (after a full GC). */
  memory(): Promise<{ rss: number; heapUsed?: number; youngGeneration?: number }>
  stop(): Promise<void>
}

function message<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: { type: string; message?: string }) => {
      if (data.type === 'error') reject(new Error(data.message))
      if (data.type !== type) return
      child.off('message', onMessage)
      resolve(data as T)
    }
    child.on('message', onMessage)
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before '${type}'`)))
  })
}

async function startEmbedded(bare = false): Promise<Target> {
  const profile = process.env.BENCH_CPU_PROF
  const child = fork(new URL('broker-process.ts', here), bare ? ['bare'] : [], {
    execArgv: [...nodeFlags, '--expose-gc', ...(profile && !bare ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const { mqttPort } = await message<{ mqttPort: number }>(child, 'ready')
  return {
    name: bare ? 'bare' : 'embedded',
    port: mqttPort,
    pid: child.pid!,
    async memory() {
      const reply = message<{ rss: number; heapUsed: number; youngGeneration: number }>(child, 'memory')
      child.send({ type: 'memory' })
      const { rss, heapUsed, youngGeneration } = await reply
      return { rss, heapUsed, youngGeneration }
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.send({ type: 'stop' })
      await exited
    },
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = netConnect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`nothing listens on ${port}`)
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024
}

/** Seconds of CPU a process has used so far (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

function mosquittoInstalled(): boolean {
  return !process.env.BENCH_NO_MOSQUITTO && spawnSync('mosquitto', ['-h']).error === undefined
}

async function startMosquitto(): Promise<Target> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'emqx-console-bench-mosquitto-'))
  const config = join(dir, 'mosquitto.conf')
  // Its default queue (max_queued_messages 1000) drops QoS 1 messages under the fan-in load, which a
  // closed-loop run cannot tell from slowness; raised so that, like the embedded broker, it drops nothing.
  writeFileSync(config, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\nmax_queued_messages 100000\n`)
  const child = spawn('mosquitto', ['-c', config], { stdio: 'ignore' })
  await waitForPort(port)
  return {
    name: 'mosquitto',
    port,
    pid: child.pid!,
    memory: async () => ({ rss: rssOf(child.pid!) }),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Runs one job in a fresh load process; returns its figures and the broker's CPU use meanwhile. */
async function load(target: Target, job: Job): Promise<LoadResult & { brokerCpu: number }> {
  const child = fork(new URL('mqtt-load.ts', here), { execArgv: nodeFlags, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  // The broker's CPU time over the measured window only (set-up and warm-up excluded).
  let cpuBefore = 0
  let started = 0
  let brokerCpu = NaN
  child.on('message', (data: { type: string }) => {
    if (data.type === 'measuring') {
      cpuBefore = cpuSeconds(target.pid)
      started = performance.now()
    }
    if (data.type === 'measured') brokerCpu = +((cpuSeconds(target.pid) - cpuBefore) / ((performance.now() - started) / 1000)).toFixed(2)
  })
  const reply = message<{ result: LoadResult }>(child, 'result')
  child.send(job)
  const { result } = await reply
  await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))
  return { ...result, brokerCpu }
}

/** Memory the broker holds for `connections` idle MQTT connections, measured between two full GCs. */
async function idleMemory(target: Target, connections: number) {
  const before = await target.memory()
  const child = fork(new URL('mqtt-load.ts', here), { execArgv: nodeFlags, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const holding = message<{ connections: number }>(child, 'holding')
  child.send({ kind: 'idle', port: target.port, connections } satisfies Job)
  await holding
  await new Promise((resolve) => setTimeout(resolve, 500))
  const after = await target.memory()
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.send({ type: 'release' })
  await exited
  return {
    rss: after.rss - before.rss,
    heap: after.heapUsed !== undefined && before.heapUsed !== undefined ? after.heapUsed - before.heapUsed : undefined,
    young: after.youngGeneration !== undefined && before.youngGeneration !== undefined ? after.youngGeneration - before.youngGeneration : undefined,
  }
}

const ALL_CASES: Array<{ label: string; job: (port: number) => Job }> = [
  { label: 'fan-in QoS 0: 100 publishers -> 1 subscriber', job: (port) => ({ kind: 'fan-in', port, qos: 0, publishers: 100, window: 1000, seconds: SECONDS }) },
  { label: 'fan-in QoS 1: 100 publishers -> 1 subscriber', job: (port) => ({ kind: 'fan-in', port, qos: 1, publishers: 100, window: 1000, seconds: SECONDS }) },
  { label: 'fan-out QoS 0: 1 publisher -> 100 subscribers', job: (port) => ({ kind: 'fan-out', port, qos: 0, subscribers: 100, window: 10, seconds: SECONDS }) },
  { label: 'fan-out QoS 1: 1 publisher -> 100 subscribers', job: (port) => ({ kind: 'fan-out', port, qos: 1, subscribers: 100, window: 10, seconds: SECONDS }) },
  { label: 'latency QoS 1: 1 -> 1 at 1,000 msg/s', job: (port) => ({ kind: 'latency', port, qos: 1, rate: 1000, seconds: SECONDS }) },
]

/** p50 / p99; a percentile whose messages had not arrived 3 s after the run reads "late". */
const latencyText = (result: LoadResult) => `${result.p50 ?? 'late'} / ${result.p99 ?? 'late'}`
const CASES = ALL_CASES.filter(({ label }) => !process.env.BENCH_CASES || label.includes(process.env.BENCH_CASES))

const mb = (bytes: number) => +(bytes / 1024 / 1024).toFixed(1)
const ratio = (ours: number, theirs: number | undefined) => (theirs ? +(ours / theirs).toFixed(2) : '-')

async function brokerTable(): Promise<void> {
  const targets: Array<() => Promise<Target>> = [() => startEmbedded()]
  if (mosquittoInstalled()) targets.push(startMosquitto)
  else console.log('mosquitto is not installed (apt-get install -y mosquitto): embedded figures only')
  const results = new Map<string, Map<string, LoadResult & { brokerCpu: number }>>()
  const memory = new Map<string, { rss: number; heap: number | undefined; young: number | undefined }>()
  for (const start of targets) {
    const target = await start()
    try {
      // Memory first, on a fresh broker, so earlier runs' garbage does not blur it.
      if (!process.env.BENCH_CASES) memory.set(target.name, await idleMemory(target, IDLE_CONNECTIONS))
      for (const { label, job } of CASES) {
        const byTarget = results.get(label) ?? new Map()
        byTarget.set(target.name, await load(target, job(target.port)))
        results.set(label, byTarget)
      }
    } finally {
      await target.stop()
    }
  }

  console.log(`\nMQTT 3.1.1, 64-byte payloads, ${SECONDS} s per case after a 1 s warm-up; the load generator is a separate process.`)
  console.log('msg/s: messages received by subscribers. Latency: publish -> receive in the load process, under that load, over every')
  console.log('message sent in the measured window. CPU in cores (2 on this machine): a load CPU near 1 means the load generator, not')
  console.log('the broker, was the limit. lost: given up after 3 s without progress; late: not arrived 3 s after the window.')
  console.table(
    CASES.map(({ label }) => {
      const ours = results.get(label)!.get('embedded')!
      const theirs = results.get(label)!.get('mosquitto')
      return {
        case: label,
        'msg/s': ours.perSecond,
        'p50 / p99 ms': latencyText(ours),
        'mosquitto msg/s': theirs?.perSecond ?? '-',
        'mosquitto p50 / p99 ms': theirs ? latencyText(theirs) : '-',
        'ratio (msg/s)': ratio(ours.perSecond, theirs?.perSecond),
        'CPU: broker / load': `${ours.brokerCpu} / ${ours.loadCpu}`,
        'mosquitto CPU: broker / load': theirs ? `${theirs.brokerCpu} / ${theirs.loadCpu}` : '-',
        'lost / late': `${ours.lost} / ${ours.late}`,
        'mosquitto lost / late': theirs ? `${theirs.lost} / ${theirs.late}` : '-',
      }
    }),
  )
  const ours = memory.get('embedded')
  const theirs = memory.get('mosquitto')
  if (!ours) return
  // What Node's own sockets cost, with no MQTT at all: the floor under the embedded figure.
  const bareTarget = await startEmbedded(true)
  const bare = await idleMemory(bareTarget, IDLE_CONNECTIONS).finally(() => bareTarget.stop())
  console.table([
    {
      case: `${IDLE_CONNECTIONS.toLocaleString('en')} idle MQTT 3.1.1 connections`,
      'RSS MB': mb(ours.rss),
      'heap MB': ours.heap !== undefined ? mb(ours.heap) : '-',
      'of RSS: empty V8 young gen MB': ours.young !== undefined ? mb(ours.young) : '-',
      'bytes/connection (RSS)': Math.round(ours.rss / IDLE_CONNECTIONS),
      'bytes/connection (heap)': ours.heap !== undefined ? Math.round(ours.heap / IDLE_CONNECTIONS) : '-',
      'mosquitto RSS MB': theirs ? mb(theirs.rss) : '-',
      'ratio (RSS)': ratio(ours.rss, theirs?.rss),
    },
    {
      case: `${IDLE_CONNECTIONS.toLocaleString('en')} idle sockets, plain node:net, no MQTT (Node's floor)`,
      'RSS MB': mb(bare.rss),
      'heap MB': bare.heap !== undefined ? mb(bare.heap) : '-',
      'of RSS: empty V8 young gen MB': bare.young !== undefined ? mb(bare.young) : '-',
      'bytes/connection (RSS)': Math.round(bare.rss / IDLE_CONNECTIONS),
      'bytes/connection (heap)': bare.heap !== undefined ? Math.round(bare.heap / IDLE_CONNECTIONS) : '-',
      'mosquitto RSS MB': '-',
      'ratio (RSS)': theirs ? ratio(bare.rss, theirs.rss) : '-',
    },
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
  if (!process.env.BENCH_CASES) await restTable()
}
