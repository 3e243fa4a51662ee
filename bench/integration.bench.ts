// `npm run bench integration`: data integration end to end. Messages per second from a rule on the
// embedded server (its own process, the server's Node flags) to a real target: the HTTP action to a
// node:http server in this process (tests/support/http-sink.ts; query_mode sync and async), the
// Redis and PostgreSQL actions to Debian's servers (sync and async, batch 1 and 100: 5.8's HTTP
// action has no batch fields), the MQTT action to a mosquitto beside mosquitto's own bridge to a
// second mosquitto. Each case publishes a fixed number of messages to the broker (from a process of
// its own) and counts distinct arrivals at the target: "delivered/s" is the messages over the time
// from the first publish to the last arrival.
// Then memory while the HTTP target is down and the action's buffer fills past max_buffer_bytes (the
// broker's RSS and heap after a full GC), and the drain once the target is back, counting what was
// lost of what the buffer held.
//   BENCH_MESSAGES=<n>     messages per throughput run (default 20000, after a 2000-message warm-up)
//   BENCH_RUNS=<n>         runs per case (default 3): the median's figures, with the slowest and fastest
//   BENCH_BUFFERS=1,16,64  the max_buffer_bytes limits of the memory table, in MB
//   BENCH_NO_MOSQUITTO=1   skips the MQTT cases
import { hasDbServer, startPostgres, startRedis, type DbKind, type DbServer } from '../tests/support/db-servers.ts'
import { cpuSeconds, mosquittoInstalled, rssOf, startNodeBroker, type Target } from './broker-targets.ts'
import { httpArrivals, mqttArrivals, pgsqlArrivals, publisher, redisArrivals, startMosquittoBridge, type Arrivals, type Publisher } from './integration-targets.ts'
import { restOf, type Rest } from './rest.ts'

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000)
const WARMUP = Math.min(2000, MESSAGES)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const BUFFERS_MB = (process.env.BENCH_BUFFERS ?? '1,16,64').split(',').map(Number)
const PAYLOAD = 100
const MB = 1024 * 1024

interface Throughput {
  case: string
  'delivered msg/s': number
  'min / max': string
  'published msg/s': number
  lost: number
  'broker CPU': number | string
  'CPU µs / msg': number | string
  note: string
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `arrivals` counts `expected`, or nothing arrived for `quietMs`; the count it ended on. */
async function settle(arrivals: Arrivals, expected: number, quietMs = 5000): Promise<number> {
  let last = -1
  let lastChange = performance.now()
  for (;;) {
    const count = await arrivals.count()
    if (count >= expected) return count
    if (count !== last) (last = count), (lastChange = performance.now())
    else if (performance.now() - lastChange > quietMs) return count
    // Often enough for seconds-long runs, rarely enough that counting in a database does not compete with the inserts.
    await sleep(20)
  }
}

/** One measured run: `MESSAGES` published, timed to their last arrival. */
async function run(pub: Publisher, topic: string, qos: 0 | 1, arrivals: Arrivals, brokerPid?: number) {
  await arrivals.reset(MESSAGES)
  const cpuBefore = brokerPid ? cpuSeconds(brokerPid) : 0
  const started = performance.now()
  const publishSeconds = await pub.publish(topic, 0, MESSAGES, qos, PAYLOAD)
  const arrived = await settle(arrivals, MESSAGES)
  const seconds = (performance.now() - started) / 1000
  return { arrived, seconds, publishSeconds, cpuSeconds: brokerPid ? cpuSeconds(brokerPid) - cpuBefore : undefined }
}

/** Publishes to `topic` on `port` after a warm-up, RUNS times; the run of the median delivery rate, and the spread. */
async function measure(label: string, note: string, port: number, topic: string, qos: 0 | 1, arrivals: Arrivals, brokerPid?: number): Promise<Throughput> {
  const pub = await publisher(port)
  try {
    await arrivals.reset(WARMUP)
    await pub.publish(topic, 0, WARMUP, qos, PAYLOAD)
    await settle(arrivals, WARMUP)
    const runs: Array<Awaited<ReturnType<typeof run>>> = []
    for (let i = 0; i < RUNS; i++) runs.push(await run(pub, topic, qos, arrivals, brokerPid))
    const rate = (r: (typeof runs)[number]) => r.arrived / r.seconds
    runs.sort((a, b) => rate(a) - rate(b))
    const median = runs[Math.floor(runs.length / 2)]
    const cpu = median.cpuSeconds === undefined ? undefined : median.cpuSeconds / median.seconds
    return {
      case: label,
      'delivered msg/s': Math.round(rate(median)),
      'min / max': `${Math.round(rate(runs[0]))} / ${Math.round(rate(runs[runs.length - 1]))}`,
      'published msg/s': Math.round(MESSAGES / median.publishSeconds),
      lost: Math.max(...runs.map((r) => MESSAGES - r.arrived)),
      'broker CPU': cpu === undefined ? '-' : +cpu.toFixed(2),
      'CPU µs / msg': median.cpuSeconds === undefined || median.arrived === 0 ? '-' : +((median.cpuSeconds * 1e6) / median.arrived).toFixed(1),
      note,
    }
  } finally {
    await pub.end()
  }
}

/** A connector, one action on it and a rule from `from` selecting the payload's `seq` (and the payload itself with `whole`). */
async function route(rest: Rest, type: string, name: string, connector: Record<string, unknown>, action: Record<string, unknown>, from: string, whole = false): Promise<void> {
  await rest('POST', '/connectors', { type, name, ...connector })
  await rest('POST', '/actions', { type, name, connector: name, ...action })
  await rest('POST', '/rules', { id: `bench_${name}`, sql: `SELECT payload.seq AS seq${whole ? ', payload' : ''} FROM "${from}"`, actions: [`${type}:${name}`] })
}

async function unroute(rest: Rest, type: string, name: string): Promise<void> {
  await rest('DELETE', `/rules/bench_${name}`)
  await rest('DELETE', `/actions/${type}:${name}`)
  await rest('DELETE', `/connectors/${type}:${name}`)
}

async function httpCases(broker: Target, rest: Rest): Promise<Throughput[]> {
  const http = httpArrivals()
  const { sink } = http
  await sink.up()
  const rows: Throughput[] = []
  try {
    for (const mode of ['sync', 'async'] as const) {
      const name = `http_${mode}`
      await route(rest, 'http', name, { url: `http://127.0.0.1:${sink.port}/hook` }, { parameters: { method: 'post', body: '${seq}' }, resource_opts: { query_mode: mode } }, `bench/${name}`)
      rows.push(await measure(`HTTP, ${mode}, batch 1`, 'pool_size 8, worker_pool_size 16', broker.port, `bench/${name}`, 0, http, broker.pid))
      await unroute(rest, 'http', name)
    }
  } finally {
    await sink.down()
  }
  rows.push(...(['sync', 'async'] as const).map((mode) => notMeasured(`HTTP, ${mode}, batch 100`, "5.8's HTTP action has no batch_size (one request a row)")))
  return rows
}

function notMeasured(label: string, note: string): Throughput {
  return { case: label, 'delivered msg/s': NaN, 'min / max': '-', 'published msg/s': NaN, lost: NaN, 'broker CPU': '-', 'CPU µs / msg': '-', note }
}

/** A type that batches, on Debian's server: the connector, the action's parameters for one case, and how to count what arrived. */
interface BatchingType {
  label: string
  type: string
  kind: DbKind
  start(): Promise<DbServer>
  connector(db: DbServer): Record<string, unknown>
  parameters(name: string): Record<string, unknown>
  arrivals(db: DbServer, name: string): Promise<Arrivals & { end(): Promise<void> }>
  batchNote: string
}

const BATCHING_TYPES: BatchingType[] = [
  {
    label: 'Redis',
    type: 'redis',
    kind: 'redis',
    start: startRedis,
    connector: (db) => ({ parameters: { redis_type: 'single', server: `${db.host}:${db.port}`, password: db.password } }),
    parameters: (name) => ({ command_template: ['SADD', name, '${seq}'] }),
    arrivals: redisArrivals,
    batchNote: 'a batch is one pipeline',
  },
  {
    label: 'PostgreSQL',
    type: 'pgsql',
    kind: 'postgresql',
    start: startPostgres,
    connector: (db) => ({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password }),
    parameters: (name) => ({ sql: `insert into ${name}(n) values (\${seq})` }),
    arrivals: pgsqlArrivals,
    batchNote: 'a batch is one INSERT',
  },
]

/** Each batching type in query_mode sync and async, with batch_size 1 and 100. */
async function batchingCases(broker: Target, rest: Rest): Promise<Throughput[]> {
  const rows: Throughput[] = []
  for (const kind of BATCHING_TYPES) {
    if (!hasDbServer(kind.kind)) {
      rows.push(notMeasured(kind.label, `${kind.kind} is not installed`))
      continue
    }
    const db = await kind.start()
    try {
      for (const mode of ['sync', 'async'] as const) {
        for (const batch of [1, 100]) {
          const name = `${kind.type}_${mode}_${batch}`
          const arrivals = await kind.arrivals(db, name)
          try {
            const opts = { query_mode: mode, batch_size: batch, batch_time: batch > 1 ? '10ms' : '0ms' }
            await route(rest, kind.type, name, kind.connector(db), { parameters: kind.parameters(name), resource_opts: opts }, `bench/${name}`)
            const note = batch > 1 ? `batch_time 10ms; ${kind.batchNote}` : 'one statement a row'
            rows.push(await measure(`${kind.label}, ${mode}, batch ${batch}`, note, broker.port, `bench/${name}`, 0, arrivals, broker.pid))
            await unroute(rest, kind.type, name)
          } finally {
            await arrivals.end()
          }
        }
      }
    } finally {
      await db.stop()
    }
  }
  return rows
}

/** The MQTT action to mosquitto, beside mosquitto bridging to a second mosquitto, at QoS 0 and 1. */
async function mqttCases(broker: Target, rest: Rest): Promise<Throughput[]> {
  if (!mosquittoInstalled()) return [notMeasured('MQTT', 'BENCH_NO_MOSQUITTO, or mosquitto is not installed (apt-get install -y mosquitto)')]
  const rows: Throughput[] = []
  for (const qos of [0, 1] as const) {
    const pair = await startMosquittoBridge('bench/out', qos)
    try {
      const far = await mqttArrivals(pair.far, 'bench/out', qos)
      try {
        const name = `mqtt_qos${qos}`
        await route(rest, 'mqtt', name, { server: `127.0.0.1:${pair.far}` }, { parameters: { topic: 'bench/out', qos, payload: '${seq}' } }, `bench/${name}`)
        rows.push(await measure(`MQTT action -> mosquitto, QoS ${qos}`, 'connector pool_size 8, max_inflight 32', broker.port, `bench/${name}`, qos, far, broker.pid))
        await unroute(rest, 'mqtt', name)
        rows.push(await measure(`mosquitto bridge -> mosquitto, QoS ${qos}`, 'the peer: mosquitto 2 bridging at its defaults', pair.near, 'bench/out', qos, far))
      } finally {
        await far.end()
      }
    } finally {
      await pair.stop()
    }
  }
  return rows
}

interface BufferRow {
  'max_buffer_bytes': string
  published: number
  'queued rows': number
  'queuing MB': number
  'dropped queue_full': number
  'RSS MB empty / full': string
  'peak RSS MB filling': number
  'heap MB empty / full': string
  'heap reserved / external MB full': string
  'reconnect s': number
  'drain s': number
  'drain msg/s': number
  'lost of queued': number
}

interface ActionMetrics {
  metrics: Record<string, number>
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : (bytes / MB).toFixed(1))

/** Fills the HTTP action's buffer while its target is down (twice the limit in rows of 1 KB), then brings the target back. */
async function bufferCase(limitMb: number): Promise<BufferRow> {
  const broker = await startNodeBroker('embedded')
  const http = httpArrivals()
  const { sink } = http
  await sink.up()
  try {
    const rest = await restOf(broker)
    const quick = { health_check_interval: '1s' }
    await route(
      rest,
      'http',
      'buffer',
      { url: `http://127.0.0.1:${sink.port}/hook`, resource_opts: quick },
      { parameters: { method: 'post', body: '${seq}' }, resource_opts: { ...quick, max_buffer_bytes: `${limitMb}MB`, request_ttl: 'infinity', resume_interval: '200ms' } },
      'bench/buffer',
      true,
    )
    const empty = await broker.memory()
    await sink.down()
    const connector = async () => (await rest('GET', '/connectors/http:buffer')) as { status: string }
    while ((await connector()).status !== 'disconnected') await sleep(100)

    // A row is the seq and the 1 KB payload's text (its quotes escaped): about 1.1 KB as the buffer counts it.
    const published = Math.ceil((2 * limitMb * MB) / 1100)
    const metrics = async () => ((await rest('GET', '/actions/http:buffer/metrics')) as ActionMetrics).metrics
    // Resident memory sampled while the buffer fills: its peak, garbage included.
    let peakRss = 0
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(broker.pid))), 50)
    const pub = await publisher(broker.port)
    try {
      await pub.publish('bench/buffer', 0, published, 1, 1024)
      while ((await metrics()).matched < published) await sleep(100)
    } finally {
      clearInterval(sampler)
      await pub.end()
    }
    const full = await metrics()
    const memory = await broker.memory()

    http.reset(published)
    const restarted = performance.now()
    await sink.up()
    while ((await connector()).status !== 'connected') await sleep(20)
    const reconnected = performance.now()
    const queued = full.queuing
    await settle(http, queued)
    const drained = performance.now()
    // The buffer drops its oldest rows: what it held are the last `queued` published.
    const arrivedOfQueued = http.seqs.countIn(published - queued, published)
    return {
      'max_buffer_bytes': `${limitMb} MB`,
      published,
      'queued rows': queued,
      'queuing MB': +mb(full.queuing_bytes),
      'dropped queue_full': full['dropped.queue_full'],
      'RSS MB empty / full': `${mb(empty.rss)} / ${mb(memory.rss)}`,
      'peak RSS MB filling': +mb(peakRss),
      'heap MB empty / full': `${mb(empty.heapUsed)} / ${mb(memory.heapUsed)}`,
      'heap reserved / external MB full': `${mb(memory.heapTotal)} / ${mb(memory.external)}`,
      'reconnect s': +((reconnected - restarted) / 1000).toFixed(2),
      'drain s': +((drained - reconnected) / 1000).toFixed(2),
      'drain msg/s': Math.round(queued / ((drained - reconnected) / 1000)),
      'lost of queued': queued - arrivedOfQueued,
    }
  } finally {
    await sink.down()
    await broker.stop()
  }
}

export default async function integrationBench(): Promise<void> {
  console.log(
    `Rule -> action throughput: ${MESSAGES} messages of ${PAYLOAD} B a run (QoS 0 publish unless the case says), ${RUNS} runs a case after ${WARMUP} to warm up; ` +
      'delivered/s from the first publish to the last distinct arrival at the target (the median run; min / max of the runs)',
  )
  const broker = await startNodeBroker('embedded')
  const rows: Throughput[] = []
  try {
    const rest = await restOf(broker)
    rows.push(...(await httpCases(broker, rest)))
    rows.push(...(await batchingCases(broker, rest)))
    rows.push(...(await mqttCases(broker, rest)))
  } finally {
    await broker.stop()
  }
  console.table(rows)

  console.log(
    'HTTP action buffer while the target is down: 2x max_buffer_bytes published in 1 KB messages (QoS 1), the oldest rows dropped as queue_full; ' +
      'memory of the broker process after a full GC (and its resident peak while filling); health_check_interval 1s, so reconnect takes up to a second; drain from connected to the last arrival',
  )
  const buffers: BufferRow[] = []
  for (const limit of BUFFERS_MB) buffers.push(await bufferCase(limit))
  console.table(buffers)
}
