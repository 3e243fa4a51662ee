// The MQTT load generator of bench/broker.bench.ts, run in a process of its own (never in the
// broker's). Raw MQTT 3.1.1 clients on node:net with hand-written framing: far cheaper per message
// than mqtt.js, so one core of load drives a broker harder. Gets one job over IPC, answers with
// its figures. Every run is closed-loop (a bounded number of messages in flight end to end), so no
// broker's queue limits are reached and both brokers see the same offered load.
import { connect as netConnect, type Socket } from 'node:net'
import { performance } from 'node:perf_hooks'

export type Job =
  /** fan-in `runId`: publisher i is `bench-in-pub-<runId>-<i>` (a trace can name one); a fresh one by default. */
  | { kind: 'fan-in'; port: number; qos: 0 | 1; publishers: number; window: number; seconds: number; alsoSubscribe?: string; runId?: string }
  | { kind: 'fan-out'; port: number; qos: 0 | 1; subscribers: number; window: number; seconds: number }
  | { kind: 'latency'; port: number; qos: 0 | 1; rate: number; seconds: number }
  | { kind: 'idle'; port: number; connections: number }
  | { kind: 'flood'; port: number; publishers: number; inflight: number; seconds: number }
  | { kind: 'churn'; port: number; connections: number }
  | { kind: 'connect-rate'; port: number; seconds: number; parallel: number; username?: string; password?: string }

export interface LoadResult {
  /** Messages received by subscribers per second (deliveries). */
  perSecond: number
  /** Messages published per second. */
  publishedPerSecond: number
  /** null: that share of the messages had not arrived 3 s after the measured window. */
  p50: number | null
  p99: number | null
  /** Deliveries of messages sent in the window that had not arrived 3 s after it. */
  late: number
  /** Deliveries given up on (no progress for a second); 0 when nothing was lost. */
  lost: number
  /** CPU the load generator used, as a share of one core. */
  loadCpu: number
  /** Connections the broker refused (connect-rate: a CONNACK other than success). */
  refused?: number
  /** fan-in with `alsoSubscribe`: what another client subscribed to that filter received per second (republished messages). */
  alsoPerSecond?: number
}

function send(message: object): void {
  process.send?.(message)
}

const PAYLOAD = 64
const WARMUP_MS = 1000

/** One raw MQTT 3.1.1 client. */
class Client {
  readonly socket: Socket
  private pending: Buffer | undefined
  onPublish: (payload: Buffer, qos: number, packetId: number) => void = () => {}
  onAck: (type: number) => void = () => {}
  /** After the packets of one chunk were handled, to answer them all in one write. */
  onChunkEnd: () => void = () => {}
  private waiting: Array<{ type: number; resolve: (body: Buffer) => void }> = []
  readonly closed: Promise<void>

  constructor(port: number) {
    this.socket = netConnect({ port, host: '127.0.0.1', noDelay: true })
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk))
    this.socket.on('error', () => {})
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()))
  }

  /** Sends CONNECT (clean session, no keep alive) and resolves with the CONNACK's return code. */
  async connect(clientId: string, username?: string, password?: string): Promise<number> {
    const field = (text: string) => {
      const bytes = Buffer.from(text)
      return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes])
    }
    const flags = 0x02 | (username !== undefined ? 0x80 : 0) | (password !== undefined ? 0x40 : 0)
    const body = Buffer.concat([
      Buffer.from([0, 4, 0x4d, 0x51, 0x54, 0x54, 4, flags, 0, 0]),
      field(clientId),
      ...(username !== undefined ? [field(username)] : []),
      ...(password !== undefined ? [field(password)] : []),
    ])
    const acked = this.expect(0x20)
    this.socket.write(Buffer.concat([Buffer.from([0x10]), varint(body.length), body]))
    return (await acked)[1] ?? 0
  }

  async subscribe(filter: string, qos: number): Promise<void> {
    const topic = Buffer.from(filter)
    const body = Buffer.concat([Buffer.from([0, 1, topic.length >> 8, topic.length & 0xff]), topic, Buffer.from([qos])])
    const acked = this.expect(0x90)
    this.socket.write(Buffer.concat([Buffer.from([0x82]), varint(body.length), body]))
    await acked
  }

  end(): Promise<void> {
    this.socket.end(Buffer.from([0xe0, 0x00]))
    return this.closed
  }

  private expect(type: number): Promise<Buffer> {
    return new Promise((resolve) => this.waiting.push({ type, resolve }))
  }

  private onData(chunk: Buffer): void {
    let data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk
    this.pending = undefined
    let at = 0
    const acks: number[] = []
    while (at < data.length) {
      // Fixed header: type byte and a variable-length remaining length.
      let length = 0
      let multiplier = 1
      let pos = at + 1
      let complete = false
      while (pos < data.length) {
        const byte = data[pos++]
        length += (byte & 0x7f) * multiplier
        multiplier *= 128
        if ((byte & 0x80) === 0) {
          complete = true
          break
        }
      }
      if (!complete || pos + length > data.length) break
      const first = data[at]
      const type = first & 0xf0
      if (type === 0x30) {
        const qos = (first >> 1) & 3
        const topicLength = data.readUInt16BE(pos)
        let payloadAt = pos + 2 + topicLength
        let packetId = 0
        if (qos > 0) {
          packetId = data.readUInt16BE(payloadAt)
          payloadAt += 2
          acks.push(packetId)
        }
        this.onPublish(data.subarray(payloadAt, pos + length), qos, packetId)
      } else {
        const waiter = this.waiting.findIndex((w) => w.type === type)
        if (waiter >= 0) this.waiting.splice(waiter, 1)[0].resolve(data.subarray(pos, pos + length))
        else this.onAck(type)
      }
      at = pos + length
    }
    if (at < data.length) this.pending = Buffer.from(data.subarray(at))
    if (acks.length > 0) {
      // Every PUBACK of this chunk in one write.
      const out = Buffer.allocUnsafe(acks.length * 4)
      acks.forEach((id, i) => {
        out[i * 4] = 0x40
        out[i * 4 + 1] = 2
        out.writeUInt16BE(id, i * 4 + 2)
      })
      this.socket.write(out)
    }
    this.onChunkEnd()
  }
}

function varint(n: number): Buffer {
  const out: number[] = []
  do {
    let byte = n % 128
    n = Math.floor(n / 128)
    if (n > 0) byte |= 0x80
    out.push(byte)
  } while (n > 0)
  return Buffer.from(out)
}

/** A PUBLISH with the send time and the sender in the payload. */
function publishPacket(topic: Buffer, qos: number, packetId: number, sender: number, seq: number): Buffer {
  const remaining = 2 + topic.length + (qos > 0 ? 2 : 0) + PAYLOAD
  const packet = Buffer.alloc(1 + (remaining < 128 ? 1 : 2) + remaining)
  let at = 0
  packet[at++] = 0x30 | (qos << 1)
  if (remaining < 128) packet[at++] = remaining
  else {
    packet[at++] = (remaining & 0x7f) | 0x80
    packet[at++] = remaining >> 7
  }
  packet.writeUInt16BE(topic.length, at)
  at += 2
  topic.copy(packet, at)
  at += topic.length
  if (qos > 0) {
    packet.writeUInt16BE(packetId, at)
    at += 2
  }
  packet.writeDoubleLE(performance.now(), at)
  packet.writeUInt32LE(sender, at + 8)
  packet.writeUInt32LE(seq, at + 12)
  return packet
}

/**
 * One run's figures. Throughput counts deliveries received during the measured window. Latency is
 * taken over every delivery due for a message *sent* in that window, waiting for stragglers after
 * it: a broker that serves some clients and starves others must not look fast because the starved
 * messages never arrived to be sampled. What has not arrived 3 s after the window counts as late.
 */
class Run {
  measuring = false
  stopped = false
  /** Send-time window whose messages are sampled for latency (performance.now()). */
  private from = Infinity
  private to = Infinity
  received = 0
  published = 0
  /** Deliveries due for messages sent in the window. */
  expected = 0
  private values = new Float64Array(1 << 16)
  private count = 0

  start(): void {
    this.measuring = true
    this.from = performance.now()
  }

  stop(): void {
    this.stopped = true
    this.measuring = false
    this.to = performance.now()
  }

  sent(deliveries: number): void {
    if (!this.measuring) return
    this.published++
    this.expected += deliveries
  }

  got(sentAt: number, now: number): void {
    if (this.measuring) this.received++
    if (sentAt < this.from || sentAt >= this.to) return
    if (this.count === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2)
      bigger.set(this.values)
      this.values = bigger
    }
    this.values[this.count++] = now - sentAt
  }

  /** Waits until every sampled message has arrived, for at most `ms`. */
  async drain(ms: number): Promise<void> {
    const deadline = performance.now() + ms
    while (this.count < this.expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  }

  /** p50 / p99 in ms; null when that share of the messages had not arrived 3 s after the window. */
  latency(): { p50: number | null; p99: number | null; late: number } {
    const sorted = this.values.slice(0, this.count).sort()
    const total = Math.max(this.expected, this.count)
    const at = (p: number) => {
      const index = Math.min(total - 1, Math.floor(total * p))
      return index < sorted.length ? +sorted[index].toFixed(2) : null
    }
    return { p50: total > 0 ? at(0.5) : null, p99: total > 0 ? at(0.99) : null, late: Math.max(0, this.expected - this.count) }
  }
}

async function connectAll(port: number, ids: string[], parallel = 200): Promise<Client[]> {
  const clients: Client[] = new Array(ids.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(parallel, ids.length) }, async () => {
      while (next < ids.length) {
        const i = next++
        const client = new Client(port)
        await client.connect(ids[i])
        clients[i] = client
      }
    }),
  )
  return clients
}

/** Starts the load, warms up, measures for `seconds`, then stops sending and waits for stragglers. */
async function measure(seconds: number, run: Run, begin: () => void) {
  begin()
  await new Promise((resolve) => setTimeout(resolve, WARMUP_MS))
  run.start()
  // The orchestrator reads the broker's CPU time over exactly this window.
  send({ type: 'measuring' })
  const cpu = process.cpuUsage()
  const started = performance.now()
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  run.stop()
  send({ type: 'measured' })
  const elapsed = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  await run.drain(3000)
  return { elapsed, loadCpu: +((used.user + used.system) / 1e6 / elapsed).toFixed(2) }
}

function result(run: Run, elapsed: number, loadCpu: number, lost: number): LoadResult {
  return { perSecond: Math.round(run.received / elapsed), publishedPerSecond: Math.round(run.published / elapsed), ...run.latency(), lost, loadCpu }
}

/** Many publishers -> one subscriber; `window` messages in flight end to end, shared evenly. */
async function fanIn(job: Extract<Job, { kind: 'fan-in' }>): Promise<LoadResult> {
  const id = job.runId ?? Date.now().toString(36)
  const [sub] = await connectAll(job.port, [`bench-in-sub-${id}`])
  await sub.subscribe('bench/in/+', job.qos)
  const pubs = await connectAll(job.port, Array.from({ length: job.publishers }, (_, i) => `bench-in-pub-${id}-${i}`))
  const [also] = job.alsoSubscribe ? await connectAll(job.port, [`bench-in-also-${id}`]) : []
  let alsoReceived = 0
  if (also) {
    await also.subscribe(job.alsoSubscribe!, 0)
    also.onPublish = () => void (run.measuring && alsoReceived++)
  }
  const perPublisher = Math.max(1, Math.floor(job.window / job.publishers))
  const outstanding = new Int32Array(job.publishers)
  const seq = new Uint32Array(job.publishers)
  const packetIds = new Uint16Array(job.publishers)
  const lastProgress = new Float64Array(job.publishers)
  const topics = pubs.map((_, i) => Buffer.from(`bench/in/${i}`))
  const run = new Run()
  let lost = 0
  const pump = (i: number) => {
    if (run.stopped) return
    const packets: Buffer[] = []
    while (outstanding[i] < perPublisher) {
      packetIds[i] = packetIds[i] === 65535 ? 1 : packetIds[i] + 1
      packets.push(publishPacket(topics[i], job.qos, packetIds[i], i, seq[i]++))
      outstanding[i]++
      run.sent(1)
    }
    if (packets.length > 0) pubs[i].socket.write(packets.length === 1 ? packets[0] : Buffer.concat(packets))
  }
  // The publishers whose messages arrived in the chunk being read refill their windows once the
  // chunk is done, a write each: a write per delivered message made the load generator the limit.
  const refill = new Uint8Array(job.publishers)
  const refilling: number[] = []
  sub.onPublish = (payload) => {
    const sender = payload.readUInt32LE(8)
    const now = performance.now()
    outstanding[sender]--
    lastProgress[sender] = now
    run.got(payload.readDoubleLE(0), now)
    if (!refill[sender]) {
      refill[sender] = 1
      refilling.push(sender)
    }
  }
  sub.onChunkEnd = () => {
    for (const sender of refilling) {
      refill[sender] = 0
      pump(sender)
    }
    refilling.length = 0
  }
  // A message lost on the way (QoS 0) would stall its publisher for good: give up on it after 3 s.
  const stall = setInterval(() => {
    const now = performance.now()
    for (let i = 0; i < job.publishers; i++) {
      if (run.stopped || outstanding[i] === 0 || now - lastProgress[i] < 3000) continue
      lost += outstanding[i]
      outstanding[i] = 0
      lastProgress[i] = now
      pump(i)
    }
  }, 250)
  const { elapsed, loadCpu } = await measure(job.seconds, run, () => {
    lastProgress.fill(performance.now())
    for (let i = 0; i < job.publishers; i++) pump(i)
  })
  clearInterval(stall)
  await Promise.all([sub, ...pubs, ...(also ? [also] : [])].map((client) => client.end()))
  return { ...result(run, elapsed, loadCpu, lost), ...(also ? { alsoPerSecond: Math.round(alsoReceived / elapsed) } : {}) }
}

/** One publisher -> many subscribers; `window` publishes in flight until every subscriber has it. */
async function fanOut(job: Extract<Job, { kind: 'fan-out' }>): Promise<LoadResult> {
  const id = Date.now().toString(36)
  const subs = await connectAll(job.port, Array.from({ length: job.subscribers }, (_, i) => `bench-out-sub-${id}-${i}`))
  await Promise.all(subs.map((sub) => sub.subscribe('bench/out/#', job.qos)))
  const [pub] = await connectAll(job.port, [`bench-out-pub-${id}`])
  const topic = Buffer.from('bench/out/x')
  const RING = 1 << 16
  const counts = new Uint16Array(RING)
  const run = new Run()
  let sent = 0
  let completed = 0
  let lost = 0
  let packetId = 0
  let lastProgress = performance.now()
  const pump = () => {
    if (run.stopped) return
    pub.socket.cork()
    while (sent - completed < job.window) {
      packetId = packetId === 65535 ? 1 : packetId + 1
      counts[sent % RING] = 0
      pub.socket.write(publishPacket(topic, job.qos, packetId, 0, sent++))
      run.sent(job.subscribers)
    }
    pub.socket.uncork()
  }
  const onPublish = (payload: Buffer) => {
    const seq = payload.readUInt32LE(12)
    lastProgress = performance.now()
    run.got(payload.readDoubleLE(0), lastProgress)
    if (++counts[seq % RING] === job.subscribers) {
      completed++
      pump()
    }
  }
  for (const sub of subs) sub.onPublish = onPublish
  // A delivery lost on the way (QoS 0) would stall the window for good: give up on it after 3 s.
  const stall = setInterval(() => {
    if (run.stopped || performance.now() - lastProgress < 3000) return
    lost += (sent - completed) * job.subscribers
    completed = sent
    lastProgress = performance.now()
    pump()
  }, 250)
  const { elapsed, loadCpu } = await measure(job.seconds, run, pump)
  clearInterval(stall)
  await Promise.all([pub, ...subs].map((client) => client.end()))
  return result(run, elapsed, loadCpu, lost)
}

/** One publisher -> one subscriber at a steady, modest rate: latency without queueing in the load. */
async function latency(job: Extract<Job, { kind: 'latency' }>): Promise<LoadResult> {
  const id = Date.now().toString(36)
  const [sub, pub] = await connectAll(job.port, [`bench-lat-sub-${id}`, `bench-lat-pub-${id}`])
  await sub.subscribe('bench/lat', job.qos)
  const topic = Buffer.from('bench/lat')
  const run = new Run()
  let seq = 0
  let packetId = 0
  sub.onPublish = (payload) => run.got(payload.readDoubleLE(0), performance.now())
  // One message every 1000/rate ms, sent from a timer that catches up when it fires late.
  let tick: NodeJS.Timeout | undefined
  const { elapsed, loadCpu } = await measure(job.seconds, run, () => {
    const started = performance.now()
    tick = setInterval(() => {
      if (run.stopped) return
      const due = Math.floor(((performance.now() - started) / 1000) * job.rate)
      while (seq < due) {
        packetId = packetId === 65535 ? 1 : packetId + 1
        pub.socket.write(publishPacket(topic, job.qos, packetId, 0, seq++))
        run.sent(1)
      }
    }, 1)
  })
  clearInterval(tick)
  await Promise.all([sub, pub].map((client) => client.end()))
  return result(run, elapsed, loadCpu, 0)
}

/**
 * Many QoS 1 publishers -> one QoS 1 subscriber, paced by the broker's PUBACKs only: each publisher
 * keeps `inflight` messages unacknowledged by the broker, whatever the subscriber gets. The broker
 * takes in more than one subscriber can read; what counts is what it delivers while flooded (the
 * subscriber acknowledges each chunk at once). Latency is over the messages delivered.
 */
async function flood(job: Extract<Job, { kind: 'flood' }>): Promise<LoadResult> {
  const id = Date.now().toString(36)
  const [sub] = await connectAll(job.port, [`bench-flood-sub-${id}`])
  await sub.subscribe('bench/flood/+', 1)
  const pubs = await connectAll(job.port, Array.from({ length: job.publishers }, (_, i) => `bench-flood-pub-${id}-${i}`))
  const topics = pubs.map((_, i) => Buffer.from(`bench/flood/${i}`))
  const packetIds = new Uint16Array(job.publishers)
  const seq = new Uint32Array(job.publishers)
  const run = new Run()
  const pump = (i: number, count: number) => {
    if (run.stopped) return
    const pub = pubs[i]
    pub.socket.cork()
    for (let n = 0; n < count; n++) {
      packetIds[i] = packetIds[i] === 65535 ? 1 : packetIds[i] + 1
      pub.socket.write(publishPacket(topics[i], 1, packetIds[i], i, seq[i]++))
      run.sent(0)
    }
    pub.socket.uncork()
  }
  // Every PUBACK of a chunk is answered with one write of as many new messages.
  const owed = new Int32Array(job.publishers)
  pubs.forEach((pub, i) => {
    pub.onAck = (type) => void (type === 0x40 && owed[i]++)
    pub.onChunkEnd = () => {
      if (owed[i] === 0) return
      pump(i, owed[i])
      owed[i] = 0
    }
  })
  sub.onPublish = (payload) => run.got(payload.readDoubleLE(0), performance.now())
  const { elapsed, loadCpu } = await measure(job.seconds, run, () => pubs.forEach((_, i) => pump(i, job.inflight)))
  await Promise.all([sub, ...pubs].map((client) => client.end()))
  return result(run, elapsed, loadCpu, 0)
}

/** Connects and cleanly disconnects `connections` clients, 200 at a time. */
async function churn(job: Extract<Job, { kind: 'churn' }>): Promise<LoadResult> {
  const id = Date.now().toString(36)
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: 200 }, async () => {
      while (next < job.connections) {
        const client = new Client(job.port)
        await client.connect(`bench-churn-${id}-${next++}`)
        await client.end()
      }
    }),
  )
  const perSecond = Math.round(job.connections / ((performance.now() - started) / 1000))
  return { perSecond, publishedPerSecond: 0, p50: null, p99: null, late: 0, lost: 0, loadCpu: NaN }
}

/**
 * Connects and disconnects as fast as `parallel` clients at a time can for `seconds`, with the
 * credentials given: successes per second, and the connections refused.
 */
async function connectRate(job: Extract<Job, { kind: 'connect-rate' }>): Promise<LoadResult> {
  const id = Date.now().toString(36)
  // The orchestrator reads the broker's CPU time over exactly this window.
  send({ type: 'measuring' })
  const cpu = process.cpuUsage()
  const started = performance.now()
  const until = started + job.seconds * 1000
  let next = 0
  let accepted = 0
  let refused = 0
  await Promise.all(
    Array.from({ length: job.parallel }, async () => {
      while (performance.now() < until) {
        const client = new Client(job.port)
        const code = await client.connect(`bench-connect-${id}-${next++}`, job.username, job.password)
        if (code === 0) accepted++
        else refused++
        if (code === 0) await client.end()
        else client.socket.destroy()
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  send({ type: 'measured' })
  const used = process.cpuUsage(cpu)
  return { perSecond: Math.round(accepted / elapsed), publishedPerSecond: 0, p50: null, p99: null, late: 0, lost: 0, refused, loadCpu: +((used.user + used.system) / 1e6 / elapsed).toFixed(2) }
}

/** Opens `connections` idle clients, says so, and holds them until told to let go. */
async function idle(job: Extract<Job, { kind: 'idle' }>): Promise<void> {
  const run = Date.now().toString(36)
  const clients = await connectAll(job.port, Array.from({ length: job.connections }, (_, i) => `bench-idle-${run}-${i}`))
  send({ type: 'holding', connections: clients.length })
  await new Promise<void>((resolve) => process.once('message', () => resolve()))
  await Promise.all(clients.map((client) => client.end()))
}

process.once('message', async (job: Job) => {
  try {
    if (job.kind === 'idle') await idle(job)
    else {
      const result =
        job.kind === 'fan-in'
          ? await fanIn(job)
          : job.kind === 'fan-out'
            ? await fanOut(job)
            : job.kind === 'flood'
              ? await flood(job)
              : job.kind === 'churn'
                ? await churn(job)
                : job.kind === 'connect-rate'
                  ? await connectRate(job)
                  : await latency(job)
      send({ type: 'result', result })
    }
  } catch (error) {
    send({ type: 'error', message: (error as Error).stack ?? String(error) })
  }
  process.disconnect?.()
})
