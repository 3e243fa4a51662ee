// The publisher of bench/testclient.bench.ts, in a process of its own so it never shares a core's
// event loop with the broker or the page more than the machine makes it. One raw MQTT 3.1.1 client
// on node:net publishing QoS 0 messages with 64-byte JSON payloads to `t/bench`, paced to a rate.
// IPC: { type: 'connect', port } -> { type: 'connected' };
//      { type: 'send', count, rate } -> { type: 'sent', sent, ms } (ms from the first to the last write).
import { connect as netConnect, type Socket } from 'node:net'
import { performance } from 'node:perf_hooks'

export type PublisherRequest = { type: 'connect'; port: number } | { type: 'send'; count: number; rate: number } | { type: 'stop' }
export type PublisherReply = { type: 'connected' } | { type: 'sent'; sent: number; ms: number } | { type: 'error'; message: string }

const TOPIC = Buffer.from('t/bench')
export const PAYLOAD_BYTES = 64
/** Bytes buffered in Node (the broker not reading fast enough) before the publisher waits. */
const MAX_BUFFERED = 1 << 20
const PACKET_BYTES = 2 + 2 + TOPIC.length + PAYLOAD_BYTES

let socket: Socket | undefined
let seq = 0

function reply(message: PublisherReply): void {
  process.send?.(message)
}

/** `{"seq":42,"t":1700000000000,"pad":"xxxx…"}`: exactly PAYLOAD_BYTES of JSON. */
function payload(n: number): string {
  const head = `{"seq":${n},"t":${Date.now()},"pad":"`
  return `${head}${'x'.repeat(PAYLOAD_BYTES - head.length - 2)}"}`
}

/** `count` PUBLISH packets (QoS 0, remaining length < 128) in one buffer. */
function packets(count: number): Buffer {
  const out = Buffer.allocUnsafe(count * PACKET_BYTES)
  for (let i = 0; i < count; i++) {
    let at = i * PACKET_BYTES
    out[at++] = 0x30
    out[at++] = PACKET_BYTES - 2
    out.writeUInt16BE(TOPIC.length, at)
    at += 2
    TOPIC.copy(out, at)
    at += TOPIC.length
    out.write(payload(seq++), at, 'latin1')
  }
  return out
}

async function connect(port: number): Promise<void> {
  const s = netConnect({ port, host: '127.0.0.1', noDelay: true })
  socket = s
  s.on('error', (error) => reply({ type: 'error', message: error.message }))
  const id = Buffer.from(`bench-testclient-pub-${process.pid}`)
  const body = Buffer.concat([Buffer.from([0, 4, 0x4d, 0x51, 0x54, 0x54, 4, 0x02, 0, 60, id.length >> 8, id.length & 0xff]), id])
  await new Promise<void>((resolve, reject) => {
    s.once('data', (chunk: Buffer) => (chunk[0] === 0x20 && chunk[3] === 0 ? resolve() : reject(new Error(`CONNACK refused: ${chunk.toString('hex')}`))))
    s.write(Buffer.concat([Buffer.from([0x10, body.length]), body]))
  })
  // Keep alive: the broker would close a silent client after 1.5 × 60 s.
  setInterval(() => s.write(Buffer.from([0xc0, 0x00])), 30_000).unref()
}

/** Sends `count` messages at `rate` per second: every millisecond, whatever is due by then. */
function send(count: number, rate: number): Promise<{ sent: number; ms: number }> {
  const s = socket!
  return new Promise((resolve) => {
    const started = performance.now()
    let sent = 0
    const tick = () => {
      if (s.writableLength <= MAX_BUFFERED) {
        const due = Math.min(count, Math.floor(((performance.now() - started) / 1000) * rate) + 1)
        if (due > sent) {
          // At most 50 ms worth in one write, so a stalled broker is not flooded on resume.
          const n = Math.min(due - sent, Math.max(1, Math.ceil(rate / 20)))
          s.write(packets(n))
          sent += n
        }
      }
      if (sent >= count) {
        clearInterval(timer)
        resolve({ sent, ms: performance.now() - started })
      }
    }
    const timer = setInterval(tick, 1)
    tick()
  })
}

// The bench went away (killed, crashed): so does its publisher.
process.on('disconnect', () => process.exit(0))

process.on('message', async (message: PublisherRequest) => {
  try {
    if (message.type === 'connect') {
      await connect(message.port)
      reply({ type: 'connected' })
    } else if (message.type === 'send') {
      reply({ type: 'sent', ...(await send(message.count, message.rate)) })
    } else if (message.type === 'stop') {
      if (!socket) process.exit(0)
      socket.end(Buffer.from([0xe0, 0x00]), () => process.exit(0))
      setTimeout(() => process.exit(0), 200).unref()
    }
  } catch (error) {
    reply({ type: 'error', message: (error as Error).stack ?? String(error) })
  }
})
