// The brokers the broker benches load, each in a process of its own: the embedded server (and aedes,
// and a bare node:net server as the floor) through bench/broker-process.ts with the server's Node
// flags, and Debian's mosquitto when installed; and a load job run in a fresh load process
// (bench/mqtt-load.ts) with the broker's CPU over the measured window.
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect as netConnect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs'
import type { BrokerKind } from './broker-process.ts'
import type { Job, LoadResult } from './mqtt-load.ts'

export const here = new URL('.', import.meta.url)
/** Node flags the bench itself runs with (type stripping, SQLite), for the child processes. */
export const nodeFlags = process.execArgv.filter((flag) => !flag.startsWith('--cpu-prof'))

export interface Target {
  name: string
  port: number
  /** The embedded server's console and REST API port. */
  httpPort?: number
  pid: number
  /** Resident memory, and the JS heap (used and reserved), V8's young generation and memory outside the heap (Buffers) where there are (after a full GC). */
  memory(): Promise<{ rss: number; heapUsed?: number; heapTotal?: number; youngGeneration?: number; external?: number }>
  stop(): Promise<void>
  /** Settles with the error it printed if the broker's process ends on its own (a crash under load). */
  crashed: Promise<string>
}

/** The first error line a child prints, once it has exited. */
export function crashOf(child: ChildProcess): Promise<string> {
  let text = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString()
    process.stderr.write(chunk)
  })
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve(/^\w*Error.*$/m.exec(text)?.[0] ?? `exited (${signal ?? code})`)),
  )
}

export function message<T>(child: ChildProcess, type: string): Promise<T> {
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

/** A Node broker (or the bare socket floor) in its own process, with the server's Node flags. */
export async function startNodeBroker(kind: BrokerKind): Promise<Target> {
  const profile = kind === 'embedded' ? process.env.BENCH_CPU_PROF : undefined
  const child = fork(new URL('broker-process.ts', here), [kind], {
    execArgv: [...nodeFlags, ...SERVER_NODE_FLAGS, '--expose-gc', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  })
  let stopping = false
  const crashed = crashOf(child).then((reason) => (stopping ? new Promise<string>(() => {}) : reason))
  const { mqttPort, httpPort } = await message<{ mqttPort: number; httpPort?: number }>(child, 'ready')
  return {
    name: kind,
    port: mqttPort,
    httpPort,
    pid: child.pid!,
    crashed,
    async memory() {
      const reply = message<{ rss: number; heapUsed: number; heapTotal: number; youngGeneration: number; external: number }>(child, 'memory')
      child.send({ type: 'memory' })
      const { rss, heapUsed, heapTotal, youngGeneration, external } = await reply
      return { rss, heapUsed, heapTotal, youngGeneration, external }
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      stopping = true
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.send({ type: 'stop' })
      await exited
    },
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export async function waitForPort(port: number): Promise<void> {
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

export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024
}

/** Seconds of CPU a process has used so far (user + system), from /proc. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

export function mosquittoInstalled(): boolean {
  return !process.env.BENCH_NO_MOSQUITTO && spawnSync('mosquitto', ['-h']).error === undefined
}

/**
 * Debian's mosquitto on a free port, logging nowhere unless `logging` says otherwise (config lines,
 * e.g. `log_dest file <path>`, in place of `log_dest none`).
 */
export async function startMosquitto(logging = 'log_dest none'): Promise<Target> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'emqx-console-bench-mosquitto-'))
  const config = join(dir, 'mosquitto.conf')
  // Its default queue (max_queued_messages 1000) drops QoS 1 messages under the fan-in load, which a
  // closed-loop run cannot tell from slowness; raised so that, like the embedded broker, it drops nothing.
  writeFileSync(config, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n${logging}\nmax_queued_messages 100000\n`)
  const child = spawn('mosquitto', ['-c', config], { stdio: 'ignore' })
  await waitForPort(port)
  return {
    name: 'mosquitto',
    port,
    pid: child.pid!,
    crashed: new Promise(() => {}),
    memory: async () => ({ rss: rssOf(child.pid!) }),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export class BrokerCrash extends Error {}

/** Runs one job in a fresh load process; returns its figures and the broker's CPU use meanwhile. */
export async function load(target: Target, job: Job): Promise<LoadResult & { brokerCpu: number }> {
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
  const outcome = await Promise.race([reply, target.crashed.then((reason) => ({ crash: reason }))])
  if ('crash' in outcome) {
    child.kill()
    throw new BrokerCrash(outcome.crash)
  }
  const { result } = outcome
  await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))
  return { ...result, brokerCpu }
}

/** Microseconds of broker CPU per message delivered. */
export const cpuPerMessage = (result: { brokerCpu: number; perSecond: number } | undefined) =>
  result && result.perSecond ? (result.brokerCpu / result.perSecond) * 1e6 : NaN

/** Opens `connections` idle MQTT clients from a load process of their own; resolves once they are all connected, with their release. */
export async function holdIdleClients(target: Target, connections: number): Promise<() => Promise<void>> {
  const child = fork(new URL('mqtt-load.ts', here), { execArgv: nodeFlags, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const holding = message<{ connections: number }>(child, 'holding')
  child.send({ kind: 'idle', port: target.port, connections } satisfies Job)
  await holding
  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.send({ type: 'release' })
    await exited
  }
}
