import { connect as netConnect, type Socket } from 'node:net'
import { generate, parser as createParser, type IConnectPacket, type Packet } from 'mqtt-packet'
import { describe, expect, it } from 'vitest'
import { kmgBytes } from '../contract/nodes.ts'
import { closed, collect, nextMessage, serverPerSuite, waitFor } from './support/server.ts'

/** A bare TCP client speaking MQTT through mqtt-packet, for what mqtt.js will not do (bad packets, silence). */
interface RawClient {
  socket: Socket
  packets: Packet[]
  closed: Promise<void>
  send(packet: Packet | Buffer): void
}

const rawSockets = new Set<Socket>()

function rawClient(port: number, protocolVersion: 3 | 4 | 5 = 4): RawClient {
  const socket = netConnect(port, '127.0.0.1')
  rawSockets.add(socket)
  const packets: Packet[] = []
  const parser = createParser({ protocolVersion })
  parser.on('packet', (packet) => packets.push(packet))
  socket.on('data', (chunk: Buffer) => parser.parse(chunk))
  socket.on('error', () => {})
  return {
    socket,
    packets,
    closed: new Promise((resolve) => socket.once('close', () => resolve())),
    send: (packet) => socket.write(Buffer.isBuffer(packet) ? packet : generate(packet, { protocolVersion })),
  }
}

function connectPacket(fields: Partial<IConnectPacket> & { protocolVersion?: 3 | 4 | 5 }): IConnectPacket {
  return { cmd: 'connect', protocolId: fields.protocolVersion === 3 ? 'MQIsdp' : 'MQTT', protocolVersion: 4, clean: true, keepalive: 60, clientId: '', ...fields }
}

describe('MQTT broker', () => {
  const suite = serverPerSuite(() => {
    for (const socket of rawSockets) socket.destroy()
    rawSockets.clear()
  })

  it('delivers QoS 0 and QoS 1 messages across TCP and WebSocket clients, with + and # matching', async () => {
    const tcpSub = await suite.t.connect({ clientId: 'm-tcp', protocolVersion: 5 })
    const wsSub = await suite.t.connect({ clientId: 'm-ws', protocolVersion: 4, transport: 'ws' })
    await tcpSub.subscribeAsync('sensors/+/temp', { qos: 1 })
    await wsSub.subscribeAsync('sensors/#', { qos: 1 })
    const tcpGot = collect(tcpSub)
    const wsGot = collect(wsSub)

    const wsPub = await suite.t.connect({ clientId: 'm-ws-pub', transport: 'ws' })
    const tcpPub = await suite.t.connect({ clientId: 'm-tcp-pub', protocolVersion: 5 })
    await wsPub.publishAsync('sensors/kitchen/temp', '21.5', { qos: 1 })
    await tcpPub.publishAsync('sensors/kitchen/humidity', '40', { qos: 0 })
    await tcpPub.publishAsync('sensors/hall/temp', '19', { qos: 0 })

    await waitFor(() => tcpGot.length >= 2 && wsGot.length >= 3, 'all deliveries')
    expect(tcpGot).toEqual([
      { topic: 'sensors/kitchen/temp', payload: '21.5', qos: 1, retain: false },
      { topic: 'sensors/hall/temp', payload: '19', qos: 0, retain: false },
    ])
    expect(wsGot).toEqual([
      { topic: 'sensors/kitchen/temp', payload: '21.5', qos: 1, retain: false },
      { topic: 'sensors/kitchen/humidity', payload: '40', qos: 0, retain: false },
      { topic: 'sensors/hall/temp', payload: '19', qos: 0, retain: false },
    ])
  })

  it('delivers at the lower of the published and the subscribed QoS', async () => {
    const sub = await suite.t.connect({ clientId: 'q-sub' })
    await sub.subscribeAsync('q/test', { qos: 0 })
    const message = nextMessage(sub)
    const pub = await suite.t.connect({ clientId: 'q-pub' })
    await pub.publishAsync('q/test', 'downgraded', { qos: 1 })
    expect(await message).toMatchObject({ payload: 'downgraded', qos: 0 })
  })

  it('delivers a QoS 2 message exactly once', async () => {
    const sub = await suite.t.connect({ clientId: 'q2-sub', protocolVersion: 5 })
    await sub.subscribeAsync('exactly/once', { qos: 2 })
    const got = collect(sub)
    const pub = await suite.t.connect({ clientId: 'q2-pub', protocolVersion: 4 })
    await pub.publishAsync('exactly/once', 'one', { qos: 2 })
    await waitFor(() => got.length === 1, 'the QoS 2 delivery')
    // A QoS 0 marker published after it arrives after it: nothing else was queued in between.
    await pub.publishAsync('exactly/once', 'marker', { qos: 0 })
    await waitFor(() => got.length === 2, 'the marker')
    expect(got.map((m) => [m.payload, m.qos])).toEqual([
      ['one', 2],
      ['marker', 0],
    ])
    const record = (await suite.api.get('/clients/q2-pub')).body
    expect(record['recv_msg.qos2']).toBe(1)
    expect(record.awaiting_rel_cnt).toBe(0)
  })

  it('does not match $ topics with a leading wildcard', async () => {
    const all = await suite.t.connect({ clientId: 'dollar-all' })
    const sys = await suite.t.connect({ clientId: 'dollar-sys' })
    await all.subscribeAsync('#')
    await sys.subscribeAsync('$SYS/#')
    const allGot = collect(all)
    const sysGot = collect(sys)
    const pub = await suite.t.connect({ clientId: 'dollar-pub' })
    await pub.publishAsync('$SYS/custom', 'hidden')
    await pub.publishAsync('plain', 'seen')
    // `$SYS/#` also gets the broker's own $SYS messages (client events); only ours matters here.
    const custom = () => sysGot.filter((m) => !m.topic.startsWith('$SYS/brokers'))
    await waitFor(() => custom().length === 1 && allGot.some((m) => m.topic === 'plain'), 'both deliveries')
    expect(custom().map((m) => m.topic)).toEqual(['$SYS/custom'])
    expect(allGot.map((m) => m.topic).filter((t) => t.startsWith('$'))).toEqual([])
    expect(allGot.map((m) => m.topic)).not.toContain('$SYS/custom')
  })

  it('stops delivering after UNSUBSCRIBE', async () => {
    const sub = await suite.t.connect({ clientId: 'unsub-1', protocolVersion: 5 })
    await sub.subscribeAsync(['u/a', 'u/b'])
    await sub.unsubscribeAsync('u/a')
    const got = collect(sub)
    const pub = await suite.t.connect({ clientId: 'unsub-pub' })
    await pub.publishAsync('u/a', 'gone')
    await pub.publishAsync('u/b', 'kept')
    await waitFor(() => got.length === 1, 'the u/b delivery')
    await pub.publishAsync('u/b', 'kept-too')
    await waitFor(() => got.length === 2, 'the second u/b delivery')
    expect(got.map((m) => m.payload)).toEqual(['kept', 'kept-too'])
  })

  it('keeps retained messages for later subscribers, and an empty payload clears them', async () => {
    // The broker's own retained $SYS messages ($SYS/brokers, version, sysdescr) are counted too.
    const retainedBefore = (await suite.api.get('/stats?aggregate=true')).body['retained.count']
    const pub = await suite.t.connect({ clientId: 'ret-pub', protocolVersion: 5 })
    await pub.publishAsync('status/door', 'open', { qos: 1, retain: true })
    const late = await suite.t.connect({ clientId: 'ret-late', protocolVersion: 5 })
    const message = nextMessage(late)
    await late.subscribeAsync('status/+', { qos: 1 })
    expect(await message).toEqual({ topic: 'status/door', payload: 'open', qos: 1, retain: true })
    expect((await suite.api.get('/stats?aggregate=true')).body['retained.count']).toBe(retainedBefore + 1)

    await pub.publishAsync('status/door', '', { qos: 1, retain: true })
    expect((await suite.api.get('/stats?aggregate=true')).body['retained.count']).toBe(retainedBefore)
  })

  it('gives each message of a shared subscription to one member of the group', async () => {
    const w1 = await suite.t.connect({ clientId: 'worker-1', protocolVersion: 5 })
    const w2 = await suite.t.connect({ clientId: 'worker-2', protocolVersion: 4 })
    await w1.subscribeAsync('$share/pool/jobs/+', { qos: 1 })
    await w2.subscribeAsync('$share/pool/jobs/+', { qos: 1 })
    const got1 = collect(w1)
    const got2 = collect(w2)
    const pub = await suite.t.connect({ clientId: 'job-pub' })
    for (let i = 0; i < 6; i++) await pub.publishAsync(`jobs/${i}`, `job${i}`, { qos: 1 })
    await waitFor(() => got1.length + got2.length === 6, 'six jobs handed out')
    expect([...got1, ...got2].map((m) => m.payload).sort()).toEqual(['job0', 'job1', 'job2', 'job3', 'job4', 'job5'])
    expect(got1.length).toBeGreaterThan(0)
    expect(got2.length).toBeGreaterThan(0)
  })

  it('honours No Local for MQTT 5 subscribers', async () => {
    const c = await suite.t.connect({ clientId: 'nolocal', protocolVersion: 5 })
    await c.subscribeAsync('echo', { qos: 0, nl: true })
    await c.subscribeAsync('echo-marker', { qos: 0 })
    const got = collect(c)
    await c.publishAsync('echo', 'mine')
    await c.publishAsync('echo-marker', 'after')
    await waitFor(() => got.length >= 1, 'the marker')
    expect(got.map((m) => m.topic)).toEqual(['echo-marker'])
  })

  it('assigns a client id to an MQTT 5 client that sent none', async () => {
    await suite.t.connect({ clientId: '', protocolVersion: 5 })
    const list = await suite.api.get('/clients')
    expect(list.body.data).toHaveLength(1)
    const assigned = list.body.data[0].clientid
    expect(assigned).toMatch(/^emqx_[0-9a-f]+$/)
    // The raw CONNACK carries the id too.
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: '' }))
    const ack = await waitFor(() => raw.packets.find((p) => p.cmd === 'connack'), 'CONNACK')
    expect(ack).toMatchObject({ reasonCode: 0, properties: { assignedClientIdentifier: expect.stringMatching(/^emqx_/) } })
  })

  it('accepts an empty client id from MQTT 3.1.1 only with a clean session', async () => {
    const clean = rawClient(suite.t.server.mqttPort, 4)
    clean.send(connectPacket({ protocolVersion: 4, clientId: '', clean: true }))
    expect(await waitFor(() => clean.packets.find((p) => p.cmd === 'connack'), 'CONNACK')).toMatchObject({ returnCode: 0 })

    const persistent = rawClient(suite.t.server.mqttPort, 4)
    // mqtt-packet will not encode this CONNECT (empty client id, clean session off), so here it is by hand.
    persistent.send(Buffer.from([0x10, 0x0c, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0x00, 0x00, 0x3c, 0x00, 0x00]))
    expect(await waitFor(() => persistent.packets.find((p) => p.cmd === 'connack'), 'CONNACK')).toMatchObject({ returnCode: 2 })
    await persistent.closed
  })

  it('lets a second connection with the same client id take over; the old MQTT 5 one gets 0x8E', async () => {
    const first = await suite.t.connect({ clientId: 'twin', protocolVersion: 5 })
    const reason = new Promise<number | undefined>((resolve) => first.once('disconnect', (packet) => resolve(packet.reasonCode)))
    const firstClosed = closed(first)
    const second = await suite.t.connect({ clientId: 'twin', protocolVersion: 5 })
    expect(await reason).toBe(0x8e)
    await firstClosed
    expect(second.connected).toBe(true)
    const list = await suite.api.get('/clients')
    expect(list.body.data.map((c: { clientid: string }) => c.clientid)).toEqual(['twin'])
    expect(list.body.data[0].connected).toBe(true)
  })

  it('resumes a persistent session and delivers what arrived while the client was away', async () => {
    const options = { clientId: 'roamer', protocolVersion: 5 as const, clean: false, properties: { sessionExpiryInterval: 300 } }
    const first = await suite.t.connect(options)
    await first.subscribeAsync('inbox/roamer', { qos: 1 })
    await first.endAsync()
    await waitFor(async () => (await suite.api.get('/clients/roamer')).body.connected === false, 'the session to be offline')

    const pub = await suite.t.connect({ clientId: 'sender' })
    await pub.publishAsync('inbox/roamer', 'while you were out', { qos: 1 })
    await waitFor(async () => (await suite.api.get('/clients/roamer')).body.mqueue_len === 1, 'the message to be queued')

    const got: string[] = []
    await suite.t.connect(options, (client) => client.on('message', (_topic, payload) => got.push(payload.toString())))
    await waitFor(() => got.length === 1, 'the queued message')
    expect(got).toEqual(['while you were out'])
    expect((await suite.api.get('/clients/roamer')).body).toMatchObject({ connected: true, mqueue_len: 0, inflight_cnt: 0 })
    await suite.api.delete('/clients/roamer')
  })

  it('closes a connection that stays silent past 1.5 times its keep alive', async () => {
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'sleepy', keepalive: 1 }))
    await waitFor(() => raw.packets.find((p) => p.cmd === 'connack'), 'CONNACK')
    await raw.closed
    expect(raw.packets.find((p) => p.cmd === 'disconnect')).toMatchObject({ reasonCode: 0x8d })
  })

  it('keeps a client alive while it sends PINGREQ within its keep alive', async () => {
    const raw = rawClient(suite.t.server.mqttPort, 4)
    raw.send(connectPacket({ protocolVersion: 4, clientId: 'pinger', keepalive: 1 }))
    await waitFor(() => raw.packets.find((p) => p.cmd === 'connack'), 'CONNACK')
    for (let i = 0; i < 4; i++) {
      raw.send({ cmd: 'pingreq' })
      await waitFor(() => raw.packets.filter((p) => p.cmd === 'pingresp').length === i + 1, `PINGRESP ${i + 1}`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(raw.socket.closed).toBe(false)
    expect((await suite.api.get('/clients/pinger')).body.connected).toBe(true)
    raw.send({ cmd: 'disconnect' })
    await raw.closed
  })

  it('closes only the connection that sent a malformed packet', async () => {
    const bystander = await suite.t.connect({ clientId: 'bystander' })
    await bystander.subscribeAsync('still/working')
    const raw = rawClient(suite.t.server.mqttPort, 4)
    raw.send(connectPacket({ protocolVersion: 4, clientId: 'garbage' }))
    await waitFor(() => raw.packets.find((p) => p.cmd === 'connack'), 'CONNACK')
    // A PUBLISH header with both QoS bits set is malformed.
    raw.send(Buffer.from([0x36, 0x00]))
    await raw.closed

    const message = nextMessage(bystander)
    await bystander.publishAsync('still/working', 'yes')
    expect((await message).payload).toBe('yes')
    expect((await suite.api.get('/clients/garbage')).status).toBe(404)
  })

  it('closes a connection whose first packet is not CONNECT', async () => {
    const raw = rawClient(suite.t.server.mqttPort, 4)
    raw.send({ cmd: 'pingreq' })
    await raw.closed
    expect(raw.packets).toEqual([])
  })

  it('accepts MQTT 3.1 clients over TCP and over WebSocket (subprotocol mqttv3.1)', async () => {
    const c = await suite.t.connect({ clientId: 'old-timer', protocolVersion: 3, protocolId: 'MQIsdp' })
    await c.subscribeAsync('legacy/#', { qos: 1 })
    const message = nextMessage(c)
    const ws = await suite.t.connect({ clientId: 'old-timer-ws', protocolVersion: 3, protocolId: 'MQIsdp', transport: 'ws' })
    await ws.publishAsync('legacy/1', 'still here', { qos: 1 })
    expect(await message).toMatchObject({ topic: 'legacy/1', payload: 'still here', qos: 1 })
    expect((await suite.api.get('/clients/old-timer')).body.proto_ver).toBe(3)
    expect((await suite.api.get('/clients/old-timer-ws')).body).toMatchObject({ proto_ver: 3, listener: 'ws:default' })
  })

  it('lets hooks deny a CONNECT and rewrite messages', async () => {
    const hooks = suite.t.server.broker!.hooks
    const removeAuth = hooks.add('client.authenticate', (info) =>
      info.username === 'mallory' ? { result: 'deny', reason: 'bad_username_or_password' } : undefined,
    )
    const removeRewrite = hooks.add('message.publish', (message) =>
      message.topic === 'shout' ? { ...message, payload: Buffer.from(message.payload.toString().toUpperCase()) } : undefined,
    )
    try {
      const raw = rawClient(suite.t.server.mqttPort, 5)
      raw.send(connectPacket({ protocolVersion: 5, clientId: 'intruder', username: 'mallory' }))
      expect(await waitFor(() => raw.packets.find((p) => p.cmd === 'connack'), 'CONNACK')).toMatchObject({ reasonCode: 0x86 })
      await raw.closed

      const c = await suite.t.connect({ clientId: 'loud', protocolVersion: 5 })
      await c.subscribeAsync('shout')
      const message = nextMessage(c)
      await c.publishAsync('shout', 'hello')
      expect((await message).payload).toBe('HELLO')
    } finally {
      removeAuth()
      removeRewrite()
    }
  })
})

describe('node, stats and metrics endpoints', () => {
  const suite = serverPerSuite()

  it('report the node with its EMQX fields, and 404 for another node', async () => {
    await suite.t.connect({ clientId: 'node-1' })
    const nodes = await suite.api.get('/nodes')
    expect(nodes.status).toBe(200)
    expect(nodes.body).toHaveLength(1)
    const node = nodes.body[0]
    expect(node).toMatchObject({ node: 'emqx@127.0.0.1', node_status: 'running', version: '5.8.0', role: 'core', edition: 'Opensource', connections: 1, live_connections: 1 })
    for (const field of ['uptime', 'load1', 'load5', 'load15', 'max_fds']) expect(typeof node[field], field).toBe('number')
    // EMQX 5.8 writes memory as text ('256.00M'): tests/nodes.test.ts checks the format.
    for (const field of ['otp_release', 'sys_path', 'log_path', 'memory_total', 'memory_used']) expect(typeof node[field], field).toBe('string')
    expect(kmgBytes(node.memory_used)).toBeLessThanOrEqual(kmgBytes(node.memory_total)!)

    expect((await suite.api.get('/nodes/emqx@127.0.0.1')).body.node).toBe('emqx@127.0.0.1')
    const missing = await suite.api.get('/nodes/emqx@elsewhere')
    expect(missing.status).toBe(404)
    expect(missing.body.code).toBe('NOT_FOUND')
  })

  it('count real traffic in /metrics and current figures in /stats', async () => {
    const before = (await suite.api.get('/metrics?aggregate=true')).body
    const sub = await suite.t.connect({ clientId: 'metrics-sub', protocolVersion: 5 })
    await sub.subscribeAsync('metrics/#', { qos: 1 })
    const got = collect(sub)
    const pub = await suite.t.connect({ clientId: 'metrics-pub' })
    await pub.publishAsync('metrics/a', 'x', { qos: 1 })
    await pub.publishAsync('metrics/b', 'y', { qos: 0 })
    await pub.publishAsync('nobody/listens', 'z', { qos: 0 })
    await waitFor(() => got.length === 2, 'two deliveries')

    const after = await waitFor(async () => {
      const m = (await suite.api.get('/metrics?aggregate=true')).body
      return m['messages.acked'] > before['messages.acked'] ? m : undefined
    }, 'the subscriber to acknowledge')
    const grew = (name: string, by: number) => expect(after[name] - before[name], name).toBe(by)
    grew('messages.received', 3)
    grew('messages.qos0.received', 2)
    grew('messages.qos1.received', 1)
    grew('messages.sent', 2)
    grew('messages.qos1.sent', 1)
    // One publish nobody listens to; the `$SYS/.../connected` event messages are not counted (as in EMQX).
    grew('messages.dropped.no_subscribers', 1)
    grew('packets.publish.received', 3)
    grew('packets.subscribe.received', 1)
    grew('packets.suback.sent', 1)
    grew('client.connected', 2)
    grew('client.subscribe', 1)
    grew('session.created', 2)
    expect(after['bytes.received']).toBeGreaterThan(before['bytes.received'])
    expect(after['bytes.sent']).toBeGreaterThan(before['bytes.sent'])
    expect(after['authorization.allow']).toBeGreaterThan(before['authorization.allow'])
    expect(after['delivery.dropped.queue_full']).toBe(0)

    const perNode = await suite.api.get('/metrics')
    expect(perNode.body).toHaveLength(1)
    expect(perNode.body[0].node).toBe('emqx@127.0.0.1')
    expect(perNode.body[0]['messages.received']).toBeGreaterThanOrEqual(after['messages.received'])

    const stats = (await suite.api.get('/stats?aggregate=true')).body
    expect(stats).toMatchObject({ 'live_connections.count': 2, 'connections.count': 2, 'subscriptions.count': 1, 'topics.count': 1, 'sessions.count': 2 })
    expect(stats['live_connections.max']).toBeGreaterThanOrEqual(2)
    const statsPerNode = await suite.api.get('/stats')
    expect(statsPerNode.body[0]).toMatchObject({ node: 'emqx@127.0.0.1', 'subscriptions.count': 1 })

    const bad = await suite.api.get('/stats?aggregate=yes')
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('BAD_REQUEST')
  })
})
