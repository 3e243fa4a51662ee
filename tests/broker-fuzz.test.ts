// Robustness: thousands of random and mutated MQTT packets, each on a fresh raw connection (TCP, some
// over WebSocket), many at once, while a well-behaved client keeps publishing and receiving its own
// QoS 1 messages. The broker must never die and must keep serving everyone else.
// The run is seeded: FUZZ_SEED=<n> npx vitest run tests/broker-fuzz.test.ts replays the same cases, byte
// for byte (their interleaving across parallel connections is up to the scheduler). FUZZ_CASES=<n> runs more.
import { connect as tcpConnect, type Socket } from 'node:net'
import { generate, type Packet } from 'mqtt-packet'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { endClients, login, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 32)
const CASES = process.env.FUZZ_CASES ? Number(process.env.FUZZ_CASES) : 3000
const PARALLEL = 64

/** mulberry32: small, fast and good enough to pick mutations reproducibly. */
function prng(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
    bytes: (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256))),
  }
}
type Rng = ReturnType<typeof prng>

/** Replaced by bad UTF-8 of the same length after encoding, so every length field stays right. */
const MARK = 'ZQZQ'
const BAD_UTF8 = [
  [0xc3, 0x28, 0x41, 0x41], // a lead byte without its continuation
  [0xed, 0xa0, 0x80, 0x41], // a UTF-16 surrogate encoded as UTF-8
  [0xf8, 0x88, 0x80, 0x80], // a five-byte form
  [0xc0, 0x80, 0x41, 0x41], // overlong NUL
  [0x41, 0x00, 0x41, 0x41], // NUL, which MQTT forbids in strings
  [0xff, 0xfe, 0xfd, 0xfc],
]

type Version = 3 | 4 | 5

function str(rng: Rng, allowMark = true): string {
  const choices = ['a', 'a/b', 'a/+/c', '#', '+', '', '/', '$SYS/x', '$share/g/t', '$share//t', '$share/g', '$queue/q', 'a/#/b', 'a+', '#a', '\u0000', 'é/ü', 'x'.repeat(300)]
  if (allowMark && rng.chance(0.2)) return `t/${MARK}`
  return rng.chance(0.3) ? `fz/${rng.int(1000)}` : rng.pick(choices)
}

function props5(rng: Rng): Record<string, unknown> | undefined {
  if (!rng.chance(0.5)) return undefined
  const all: Record<string, () => unknown> = {
    payloadFormatIndicator: () => rng.chance(0.5),
    messageExpiryInterval: () => rng.pick([0, 1, 3600, 0xffffffff]),
    contentType: () => str(rng),
    responseTopic: () => str(rng),
    correlationData: () => rng.bytes(rng.int(20)),
    subscriptionIdentifier: () => rng.pick([1, 2, 268435455]),
    topicAlias: () => rng.pick([1, 2, 10, 65535]),
    userProperties: () => ({ k: str(rng), [str(rng, false)]: ['v', str(rng)] }),
    sessionExpiryInterval: () => rng.pick([0, 10, 0xffffffff]),
    receiveMaximum: () => rng.pick([1, 2, 65535]),
    maximumPacketSize: () => rng.pick([1, 20, 100, 268435455]),
    topicAliasMaximum: () => rng.pick([0, 1, 65535]),
    requestResponseInformation: () => rng.chance(0.5),
    requestProblemInformation: () => rng.chance(0.5),
    authenticationMethod: () => str(rng),
    authenticationData: () => rng.bytes(4),
    reasonString: () => str(rng),
    willDelayInterval: () => rng.pick([0, 1, 1000]),
  }
  const out: Record<string, unknown> = {}
  for (const [name, make] of Object.entries(all)) if (rng.chance(0.25)) out[name] = make()
  return out
}

function connectPacket(rng: Rng, version: Version, n: number): Packet {
  const v5 = version === 5
  return {
    cmd: 'connect',
    protocolId: version === 3 ? 'MQIsdp' : 'MQTT',
    protocolVersion: version,
    clean: rng.chance(0.8),
    clientId: rng.chance(0.15) ? `fz-${MARK}` : rng.chance(0.1) ? '' : `fuzz-${n}`,
    keepalive: rng.pick([0, 1, 60, 65535]),
    username: rng.chance(0.3) ? str(rng) : undefined,
    password: rng.chance(0.2) ? rng.bytes(rng.int(10)) : undefined,
    will: rng.chance(0.3)
      ? { topic: str(rng), payload: rng.bytes(rng.int(20)), qos: rng.pick([0, 1, 2] as const), retain: rng.chance(0.3), properties: v5 ? (props5(rng) as any) : undefined }
      : undefined,
    properties: v5 ? (props5(rng) as any) : undefined,
  } as Packet
}

/** Any packet a client (or a confused client) might send after CONNECT, with odd field values. */
function randomPacket(rng: Rng, version: Version): Packet {
  const v5 = version === 5
  const id = rng.pick([0, 1, 2, 65535, 1 + rng.int(100)])
  const properties = v5 ? (props5(rng) as any) : undefined
  const reasonCode = v5 ? rng.pick([0, 0x04, 0x10, 0x80, 0x91, 0x92, 0xff]) : undefined
  const qos = rng.pick([0, 1, 2] as const)
  switch (rng.int(14)) {
    case 0:
    case 1:
    case 2:
      return { cmd: 'publish', topic: str(rng), payload: rng.bytes(rng.int(64)), qos, retain: rng.chance(0.3), dup: rng.chance(0.2), messageId: qos > 0 ? id : undefined, properties } as Packet
    case 3:
      return {
        cmd: 'subscribe',
        messageId: id,
        subscriptions: Array.from({ length: 1 + rng.int(4) }, () => ({ topic: str(rng), qos: rng.pick([0, 1, 2] as const), nl: v5 && rng.chance(0.3), rap: v5 && rng.chance(0.3), rh: v5 ? rng.pick([0, 1, 2]) : undefined })),
        properties,
      } as Packet
    case 4:
      return { cmd: 'unsubscribe', messageId: id, unsubscriptions: Array.from({ length: 1 + rng.int(3) }, () => str(rng)), properties } as Packet
    case 5:
      return { cmd: 'puback', messageId: id, reasonCode, properties } as Packet
    case 6:
      return { cmd: 'pubrec', messageId: id, reasonCode, properties } as Packet
    case 7:
      return { cmd: 'pubrel', messageId: id, reasonCode, properties } as Packet
    case 8:
      return { cmd: 'pubcomp', messageId: id, reasonCode, properties } as Packet
    case 9:
      return { cmd: 'pingreq' }
    case 10:
      return { cmd: 'disconnect', reasonCode, properties } as Packet
    case 11:
      return v5 ? ({ cmd: 'auth', reasonCode: rng.pick([0, 0x18, 0x19]), properties } as Packet) : { cmd: 'pingreq' }
    case 12:
      // Packets only a server sends.
      return rng.pick<Packet>([
        { cmd: 'connack', returnCode: 0, sessionPresent: false, reasonCode: 0 } as Packet,
        { cmd: 'suback', messageId: id, granted: [0, 1] } as Packet,
        { cmd: 'unsuback', messageId: id, granted: [0] } as Packet,
        { cmd: 'pingresp' },
      ])
    default:
      return connectPacket(rng, version, 0)
  }
}

function encode(packet: Packet, version: Version): Buffer | undefined {
  try {
    return generate(packet, { protocolVersion: version })
  } catch {
    return undefined // mqtt-packet refuses some of the odd values we make up; pick another
  }
}

function encodeSome(rng: Rng, make: () => Packet, version: Version): Buffer {
  for (let i = 0; i < 20; i++) {
    const bytes = encode(make(), version)
    if (bytes) return bytes
  }
  return Buffer.from([0xc0, 0x00])
}

/** Where the remaining length ends and the body starts (1 when the header is broken). */
function bodyStart(bytes: Buffer): number {
  let pos = 1
  for (let i = 0; i < 4 && pos < bytes.length; i++) if ((bytes[pos++] & 0x80) === 0) break
  return pos
}

function replaceMark(bytes: Buffer, rng: Rng): Buffer {
  const out = Buffer.from(bytes)
  for (let at = out.indexOf(MARK); at >= 0; at = out.indexOf(MARK, at + 1)) Buffer.from(rng.pick(BAD_UTF8)).copy(out, at)
  return out
}

const MUTATIONS = [
  'flip-bits',
  'truncate',
  'bad-remaining-length',
  'bad-utf8',
  'reserved-flags',
  'protocol-name',
  'protocol-level',
  'before-connect',
  'oversized-length',
  'garbage',
  'valid-odd',
  'connect-flags',
  'empty-lists',
  'split-valid-odd',
  'takeover',
] as const
type Mutation = (typeof MUTATIONS)[number]

interface Case {
  n: number
  mutation: Mutation
  transport: 'tcp' | 'ws'
  /** Chunks written in order. */
  chunks: Buffer[]
}

function makeCase(rng: Rng, n: number): Case {
  const version = rng.pick<Version>([3, 4, 5, 5])
  const mutation = rng.pick(MUTATIONS)
  const connect = () => encodeSome(rng, () => connectPacket(rng, version, n), version)
  // Most cases connect properly first, so the mutation reaches the connected protocol code.
  const validConnect = () => encodeSome(rng, () => ({ ...(connectPacket(rng, version, n) as any), clientId: `fuzz-${n}`, will: undefined, username: undefined, password: undefined, properties: undefined }), version)
  const prefix = rng.chance(0.6) ? [validConnect()] : []
  const some = () => (prefix.length > 0 && rng.chance(0.8) ? encodeSome(rng, () => randomPacket(rng, version), version) : connect())
  let chunks: Buffer[]
  switch (mutation) {
    case 'flip-bits': {
      const bytes = Buffer.from(some())
      for (let i = 1 + rng.int(8); i > 0; i--) bytes[rng.int(bytes.length)] ^= 1 << rng.int(8)
      chunks = [...prefix, bytes]
      break
    }
    case 'truncate': {
      const bytes = some()
      chunks = [...prefix, bytes.subarray(0, rng.int(bytes.length))]
      break
    }
    case 'bad-remaining-length': {
      const bytes = some()
      const body = bytes.subarray(bodyStart(bytes))
      const header = rng.pick([
        [0xff, 0xff, 0xff, 0xff, 0x7f], // five bytes: more than MQTT allows
        [0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
        [0x80, 0x00], // a non-minimal zero
        [Math.max(0, body.length - 1 - rng.int(4)) & 0x7f], // shorter than the body
        [(body.length + 1 + rng.int(10)) & 0x7f], // longer than the body
        [0x00],
      ])
      chunks = [...prefix, Buffer.concat([bytes.subarray(0, 1), Buffer.from(header), body])]
      break
    }
    case 'bad-utf8':
      // Strings carry MARK: the client id, topics, user properties, will topic...
      chunks = [...prefix, replaceMark(some(), rng), replaceMark(some(), rng)]
      break
    case 'reserved-flags': {
      const bytes = Buffer.from(some())
      bytes[0] = (bytes[0] & 0xf0) | rng.int(16)
      if (rng.chance(0.3)) bytes[0] = rng.pick([0x00, 0xf0, 0x36, 0x3e]) // reserved types, QoS 3
      chunks = [...prefix, bytes]
      break
    }
    case 'protocol-name': {
      const bytes = Buffer.from(connect())
      const at = bodyStart(bytes)
      const name = rng.pick(['MQTX', 'mqtt', 'MQIsdp', 'MQT', 'MQTTT', '\u0000\u0000\u0000\u0000'])
      const rebuilt = Buffer.concat([Buffer.from([0, name.length]), Buffer.from(name, 'latin1'), bytes.subarray(at + 2 + bytes.readUInt16BE(at))])
      chunks = [Buffer.concat([Buffer.from([0x10]), varint(rebuilt.length), rebuilt])]
      break
    }
    case 'protocol-level': {
      const bytes = Buffer.from(connect())
      const at = bodyStart(bytes)
      bytes[at + 2 + bytes.readUInt16BE(at)] = rng.pick([0, 1, 2, 6, 7, 0x83, 0x84, 0x85, 0xff])
      chunks = [bytes]
      break
    }
    case 'before-connect':
      chunks = [encodeSome(rng, () => randomPacket(rng, version), version), connect()]
      break
    case 'oversized-length': {
      // Announces up to 256 MB and then keeps sending: the broker must not buffer it all.
      const type = rng.pick([0x10, 0x30, 0x32, 0x82])
      const tail = rng.bytes(64 * 1024)
      chunks = [...prefix, Buffer.concat([Buffer.from([type, 0xff, 0xff, 0xff, rng.pick([0x7f, 0x01])]), tail]), tail, tail]
      break
    }
    case 'garbage':
      chunks = [rng.bytes(1 + rng.int(rng.chance(0.1) ? 5000 : 200))]
      break
    case 'valid-odd':
      chunks = [...prefix, ...Array.from({ length: 1 + rng.int(6) }, () => encodeSome(rng, () => randomPacket(rng, version), version))]
      break
    case 'empty-lists': {
      // SUBSCRIBE / UNSUBSCRIBE naming no topic filter, which mqtt-packet parses without complaint.
      const id = [0x00, 1 + rng.int(200)]
      const body = version === 5 ? [...id, 0x00] : id
      chunks = [...prefix, Buffer.from([rng.pick([0x82, 0xa2]), body.length, ...body])]
      break
    }
    case 'connect-flags': {
      const bytes = Buffer.from(connect())
      const at = bodyStart(bytes)
      const flagsAt = at + 2 + bytes.readUInt16BE(at) + 1
      if (flagsAt < bytes.length) bytes[flagsAt] = rng.int(256)
      chunks = [bytes]
      break
    }
    case 'takeover': {
      // A few client ids shared by many concurrent cases: sessions taken over mid-exchange, resumed
      // (clean start off, expiry set) with QoS 1/2 messages in flight both ways.
      const shared = encodeSome(
        rng,
        () => ({ ...(connectPacket(rng, version, n) as any), clientId: `fuzz-take-${n % 8}`, username: undefined, password: undefined, clean: rng.chance(0.5), properties: version === 5 ? { sessionExpiryInterval: rng.pick([0, 5, 0xffffffff]) } : undefined }),
        version,
      )
      const subscribe = encodeSome(rng, () => ({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: `take/${rng.int(3)}/#`, qos: rng.pick([0, 1, 2] as const) }] }) as Packet, version)
      const publishes = Array.from({ length: 1 + rng.int(6) }, (_, i) =>
        encodeSome(rng, () => ({ cmd: 'publish', topic: `take/${rng.int(3)}/x`, payload: rng.bytes(8), qos: rng.pick([0, 1, 2] as const), retain: false, dup: false, messageId: 10 + i }) as Packet, version),
      )
      chunks = [shared, subscribe, ...publishes, ...(rng.chance(0.5) ? [encodeSome(rng, () => randomPacket(rng, version), version)] : [])]
      break
    }
    case 'split-valid-odd': {
      // The same odd packets, arriving a few bytes at a time.
      const all = Buffer.concat([...prefix, ...Array.from({ length: 1 + rng.int(4) }, () => encodeSome(rng, () => randomPacket(rng, version), version))])
      chunks = []
      for (let at = 0; at < all.length; ) {
        const size = 1 + rng.int(7)
        chunks.push(all.subarray(at, at + size))
        at += size
      }
      break
    }
  }
  return { n, mutation, transport: rng.chance(0.15) ? 'ws' : 'tcp', chunks }
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

/** Writes one case on a fresh connection; resolves when the broker closed it or after a short linger. */
function runCase(t: TestServer, c: Case): Promise<'closed' | 'lingered'> {
  return new Promise((resolve) => {
    let done = false
    let linger: NodeJS.Timeout | undefined
    const finish = (how: 'closed' | 'lingered', destroy: () => void) => {
      if (done) return
      done = true
      clearTimeout(linger)
      destroy()
      resolve(how)
    }
    if (c.transport === 'tcp') {
      const socket: Socket = tcpConnect(t.server.mqttPort!, '127.0.0.1')
      socket.on('error', () => {})
      socket.on('data', () => {})
      socket.on('close', () => finish('closed', () => {}))
      socket.on('connect', () => {
        for (const chunk of c.chunks) if (!socket.destroyed) socket.write(chunk)
        linger = setTimeout(() => finish('lingered', () => socket.destroy()), 150)
      })
    } else {
      const ws = new WebSocket(t.wsUrl, 'mqtt')
      ws.on('error', () => finish('closed', () => ws.terminate()))
      ws.on('close', () => finish('closed', () => {}))
      ws.on('open', () => {
        // Over WebSocket each chunk is one binary frame.
        for (const chunk of c.chunks) ws.send(chunk)
        linger = setTimeout(() => finish('lingered', () => ws.terminate()), 150)
      })
    }
  })
}

describe('broker under a storm of malformed and odd packets', () => {
  let t: TestServer
  let api: Api
  const failures: string[] = []
  const onUncaught = (error: unknown) => failures.push(`uncaughtException: ${(error as Error)?.stack ?? String(error)}`)
  const onUnhandled = (reason: unknown) => failures.push(`unhandledRejection: ${(reason as Error)?.stack ?? String(reason)}`)
  // The broker reports what it cannot handle (a reply it cannot encode, a hook that threw) on
  // console.error: under fuzzing that is a bug too.
  const consoleError = console.error

  beforeAll(async () => {
    console.log(`broker fuzz seed: ${SEED} (replay with FUZZ_SEED=${SEED})`)
    process.on('uncaughtException', onUncaught)
    process.on('unhandledRejection', onUnhandled)
    console.error = (...args: unknown[]) => {
      failures.push(`console.error: ${args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' ')}`)
      consoleError(...args)
    }
    t = await startTestServer()
    api = await login(t.url)
  })

  afterAll(async () => {
    process.off('uncaughtException', onUncaught)
    process.off('unhandledRejection', onUnhandled)
    console.error = consoleError
    await endClients()
    await t?.close()
  })

  it(`survives ${CASES} mutated packets on fresh connections while a good client keeps its QoS 1 traffic (seed printed)`, { timeout: 60_000 }, async () => {
    const good = await t.connect({ clientId: 'fuzz-good', protocolVersion: 5, clean: true })
    const received = new Set<number>()
    good.on('message', (_topic, payload) => received.add(Number(payload.toString())))
    await good.subscribeAsync('good/own', { qos: 1 })
    // Watchers get whatever the fuzz clients manage to publish, so every odd message is also encoded
    // for subscribers of both protocol versions.
    const watchers = [await t.connect({ clientId: 'fuzz-watch-5', protocolVersion: 5 }), await t.connect({ clientId: 'fuzz-watch-4', protocolVersion: 4 })]
    let watched = 0
    // What a subscriber may see on a PUBLISH: anything else was forwarded from a packet where it did not belong.
    const publishProperties = new Set(['payloadFormatIndicator', 'messageExpiryInterval', 'topicAlias', 'responseTopic', 'correlationData', 'userProperties', 'subscriptionIdentifier', 'contentType'])
    watchers[0].on('message', (topic, _payload, packet) => {
      const foreign = Object.keys(packet.properties ?? {}).filter((name) => !publishProperties.has(name))
      if (foreign.length > 0) failures.push(`PUBLISH on ${topic} forwarded with ${foreign.join(', ')}`)
    })
    for (const watcher of watchers) {
      watcher.on('message', () => watched++)
      await watcher.subscribeAsync('#', { qos: 1 })
    }
    let published = 0
    let acked = 0
    let stop = false
    const publisher = (async () => {
      while (!stop) {
        const n = published++
        await good.publishAsync('good/own', String(n), { qos: 1 })
        acked++
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    })()

    const rng = prng(SEED)
    const cases = Array.from({ length: CASES }, (_, n) => makeCase(rng, n))
    const outcomes: Record<string, number> = {}
    let next = 0
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < cases.length) {
          const c = cases[next++]
          const how = await runCase(t, c)
          outcomes[`${c.mutation}/${how}`] = (outcomes[`${c.mutation}/${how}`] ?? 0) + 1
        }
      }),
    )
    stop = true
    await publisher
    console.log(`broker fuzz seed ${SEED}: ${CASES} cases, ${watched} messages seen by the watchers`, outcomes)
    for (const watcher of watchers) expect(watcher.connected).toBe(true)

    // The good client kept its connection and got every one of its own QoS 1 messages back.
    expect(good.connected).toBe(true)
    expect(acked).toBeGreaterThan(0)
    await waitFor(() => received.size === published, `all ${published} own messages back (seed ${SEED})`)

    // The server still answers REST and takes new clients on both listeners.
    expect((await api.get('/clients?limit=10')).status).toBe(200)
    const fresh = await t.connect({ clientId: 'fuzz-after-tcp' })
    const freshWs = await t.connect({ clientId: 'fuzz-after-ws', transport: 'ws' })
    await fresh.subscribeAsync('after/#', { qos: 1 })
    const got = new Promise<string>((resolve) => fresh.once('message', (_topic, payload) => resolve(payload.toString())))
    await freshWs.publishAsync('after/x', 'still here', { qos: 1 })
    expect(await got).toBe('still here')

    // Every fuzz connection is gone: only the five good clients remain live.
    await waitFor(async () => (await api.get('/stats?aggregate=true')).body['live_connections.count'] === 5, `only the good clients live (seed ${SEED})`, 10_000)

    // The broker's counters agree with what it lists, and forgetting every fuzz session leaves exactly
    // the good clients' subscriptions and topics behind (nothing leaked in the router).
    const stats = async () => (await api.get('/stats?aggregate=true')).body
    const clients = (await api.get('/clients?limit=10000')).body
    expect((await stats())['connections.count'], `seed ${SEED}`).toBe(clients.meta.count)
    expect((await stats())['subscriptions.count'], `seed ${SEED}`).toBe((await api.get('/subscriptions?limit=1')).body.meta.count)
    const goodIds = new Set(['fuzz-good', 'fuzz-watch-5', 'fuzz-watch-4', 'fuzz-after-tcp', 'fuzz-after-ws'])
    for (const { clientid } of clients.data as Array<{ clientid: string }>) {
      if (!goodIds.has(clientid)) expect((await api.delete(`/clients/${encodeURIComponent(clientid)}`)).status, clientid).toBe(204)
    }
    expect((await api.get('/clients')).body.meta.count).toBe(5)
    expect(await stats(), `seed ${SEED}`).toMatchObject({ 'subscriptions.count': 4, 'topics.count': 3, 'subscriptions.shared.count': 0 })
    expect(failures, `seed ${SEED}`).toEqual([])
  })
})
