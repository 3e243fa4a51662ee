// What bench/integration.bench.ts sends to and how it counts arrivals: the HTTP sink of
// tests/support/http-sink.ts in the bench process (stopped and started again on the same port), an
// MQTT subscriber on the far broker, a Redis set, a PostgreSQL table, a pair of Debian mosquittos joined by mosquitto's
// own bridge, and the publisher that feeds a broker (bench/integration-publisher.ts, a process of
// its own). Every counter counts distinct sequence numbers, so "lost" means a message that never
// arrived, and a duplicate is not mistaken for one.
import { fork } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import mqtt from 'mqtt'
import { createClient } from 'redis'
import { PostgresBackend } from '../server/backends/postgresql.ts'
import { HttpSink } from '../tests/support/http-sink.ts'
import { freePort, run, stopChild, tempDir, waitForPort, type DbServer } from '../tests/support/db-servers.ts'
import { here, message, nodeFlags } from './broker-targets.ts'

/** Distinct sequence numbers seen, out of the ones a run published. */
export class SeqSet {
  private seen = new Uint8Array(0)
  count = 0

  reset(size: number): void {
    this.seen = new Uint8Array(size)
    this.count = 0
  }

  add(seq: number): void {
    if (seq >= 0 && seq < this.seen.length && this.seen[seq] === 0) {
      this.seen[seq] = 1
      this.count++
    }
  }

  /** How many of [from, to) arrived. */
  countIn(from: number, to: number): number {
    let n = 0
    for (let seq = from; seq < to; seq++) n += this.seen[seq]
    return n
  }
}

/** A payload's sequence number: the bare number an action's template made, or the published JSON's `seq`. */
export function seqOf(text: string): number {
  return text.startsWith('{"seq":') ? parseInt(text.slice(7), 10) : parseInt(text, 10)
}

/** A counter the bench polls: how many distinct messages of the run have arrived. */
export interface Arrivals {
  reset(size: number): Promise<void> | void
  count(): Promise<number> | number
}

/** The HTTP sink (tests/support/http-sink.ts) counting the sequence numbers it is sent: each body is one. */
export function httpArrivals(): { sink: HttpSink; seqs: SeqSet } & Arrivals {
  const seqs = new SeqSet()
  return { sink: new HttpSink((body) => seqs.add(seqOf(body))), seqs, reset: (size) => seqs.reset(size), count: () => seqs.count }
}

/** An mqtt.js subscriber on the far broker counting what arrives on `filter`. */
export async function mqttArrivals(port: number, filter: string, qos: 0 | 1): Promise<Arrivals & { end(): Promise<void> }> {
  const seqs = new SeqSet()
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: `bench-sub-${port}`, reconnectPeriod: 0 })
  client.on('message', (_topic, payload) => seqs.add(seqOf(payload.toString())))
  await client.subscribeAsync(filter, { qos })
  return {
    reset: (size) => seqs.reset(size),
    count: () => seqs.count,
    end: () => client.endAsync(),
  }
}

/** The members of one Redis set (the action SADDs each row's sequence number). */
export async function redisArrivals(db: DbServer, key: string): Promise<Arrivals & { end(): Promise<void> }> {
  const client = createClient({ socket: { host: db.host, port: db.port }, password: db.password })
  await client.connect()
  return {
    reset: async () => void (await client.del(key)),
    count: () => client.sCard(key),
    end: async () => void (await client.quit()),
  }
}

/** The distinct `n` in one PostgreSQL table (the action INSERTs each row's sequence number). */
export async function pgsqlArrivals(db: DbServer, table: string): Promise<Arrivals & { end(): Promise<void> }> {
  const pg = new PostgresBackend({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password })
  await pg.execute(`CREATE TABLE ${table} (n INT)`, [])
  return {
    reset: async () => void (await pg.execute(`TRUNCATE ${table}`, [])),
    count: async () => Number((await pg.query({ text: `SELECT count(DISTINCT n) AS c FROM ${table}`, params: [] }, {}))[0].c),
    end: () => pg.close(),
  }
}

/** Two mosquittos, `near` bridging `topic` out to `far` with mosquitto's own bridge at `qos`. */
export async function startMosquittoBridge(topic: string, qos: 0 | 1): Promise<{ near: number; far: number; stop(): Promise<void> }> {
  const started: Array<{ child: ReturnType<typeof run>['child']; dir: string }> = []
  const start = async (lines: string[]) => {
    const dir = tempDir('bench-mosquitto')
    const port = await freePort()
    const config = join(dir, 'mosquitto.conf')
    // As root mosquitto would switch to its own user, away from the directory that is ours.
    const asRoot = process.getuid?.() === 0 ? ['user root'] : []
    // The default queue (1000 messages) would drop a burst the bridge has not forwarded yet.
    writeFileSync(config, [...asRoot, 'allow_anonymous true', 'persistence false', 'log_dest none', 'max_queued_messages 1000000', `listener ${port} 127.0.0.1`, ...lines].join('\n') + '\n')
    const server = run('/usr/sbin/mosquitto', ['-c', config])
    started.push({ child: server.child, dir })
    await waitForPort(port, server.child, 'mosquitto', server.output)
    return port
  }
  const far = await start([])
  const near = await start(['connection bench-peer', `address 127.0.0.1:${far}`, `topic ${topic} out ${qos}`, 'cleansession true'])
  return { near, far, stop: async () => void (await Promise.all(started.map(({ child, dir }) => stopChild(child, dir)))) }
}

export interface Publisher {
  /** `count` messages `{"seq":n,"data":…}` of about `bytes`; the seconds until the last was written (QoS 0) or acknowledged (QoS 1). */
  publish(topic: string, from: number, count: number, qos: 0 | 1, bytes: number): Promise<number>
  end(): Promise<void>
}

/** A publisher on one broker, in a process of its own so that it never holds up the counting here. */
export async function publisher(port: number): Promise<Publisher> {
  const child = fork(new URL('integration-publisher.ts', here), [String(port)], { execArgv: nodeFlags, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  await message(child, 'ready')
  return {
    async publish(topic, from, count, qos, bytes) {
      const done = message<{ seconds: number }>(child, 'published')
      child.send({ type: 'publish', topic, from, count, qos, bytes })
      return (await done).seconds
    },
    async end() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.send({ type: 'end' })
      await exited
    },
  }
}
