// GET /metrics, GET /stats and the per-client counters of /clients: every counter is caused by real
// MQTT traffic (mqtt.js clients, or bare sockets for what mqtt.js will not send) and read back over
// HTTP, with exact growth where the event count is known.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectPacket, destroyRawClients, rawClient, serverPerSuite, subackCodes, waitFor } from './support/server.ts'

type Counters = Record<string, number>

describe('metrics, stats and client counters', () => {
  const suite = serverPerSuite(destroyRawClients)
  const put = (path: string, body: unknown) => suite.api.request('PUT', path, body)
  const metrics = async (): Promise<Counters> => (await suite.api.get('/metrics?aggregate=true')).body
  const stats = async (): Promise<Counters> => (await suite.api.get('/stats?aggregate=true')).body
  const client = async (clientid: string) => (await suite.api.get(`/clients/${encodeURIComponent(clientid)}`)).body
  const port = () => suite.t.server.mqttPort

  beforeAll(async () => {
    // No `$SYS` messages: they are published (and dropped for want of subscribers) and would blur exact counts.
    const off = { client_connected: false, client_disconnected: false, client_subscribed: false, client_unsubscribed: false }
    await put('/configs/sys_topics', { sys_msg_interval: 'disabled', sys_heartbeat_interval: 'disabled', sys_event_messages: off })
  })
  afterAll(async () => {
    await put('/configs/mqtt', { max_mqueue_len: 1000, mqueue_store_qos0: true, max_awaiting_rel: 100, await_rel_timeout: '300s', max_topic_levels: 128, max_subscriptions: 'infinity' })
  })

  /** Waits until every counter grew by at least its amount, then checks each grew by exactly that. */
  async function grows(before: Counters, expected: Counters, read = metrics): Promise<Counters> {
    const reached = (now: Counters) => Object.entries(expected).every(([name, by]) => now[name] - before[name] >= by)
    let after: Counters
    try {
      after = await waitFor(async () => {
        const now = await read()
        return reached(now) ? now : undefined
      }, 'the counters to grow')
    } catch {
      after = await read()
    }
    const growth = Object.fromEntries(Object.keys(expected).map((name) => [name, after[name] - before[name]]))
    expect(growth).toEqual(expected)
    return after
  }

  it('counts a whole client lifecycle: connect, subscribe, QoS 0/1/2 both ways, unsubscribe, disconnect', async () => {
    const before = await metrics()
    const sub = await suite.t.connect({ clientId: 'mt-sub', protocolVersion: 5 })
    const got: string[] = []
    sub.on('message', (_topic, payload) => got.push(payload.toString()))
    await sub.subscribeAsync('mt/#', { qos: 2 })
    const pub = await suite.t.connect({ clientId: 'mt-pub' })
    await pub.publishAsync('mt/0', 'zero', { qos: 0 })
    await pub.publishAsync('mt/1', 'one', { qos: 1 })
    await pub.publishAsync('mt/2', 'two', { qos: 2 })
    await waitFor(() => got.length === 3, 'three deliveries')
    await grows(before, { 'messages.acked': 2, 'packets.pubcomp.received': 1 })
    await sub.unsubscribeAsync('mt/#')
    await pub.endAsync()
    await sub.endAsync()
    const after = await grows(before, {
      'client.connect': 2,
      'packets.connect.received': 2,
      'client.authenticate': 2,
      'client.auth.anonymous': 2,
      'authentication.success': 2,
      'authentication.success.anonymous': 2,
      'authentication.failure': 0,
      'client.connack': 2,
      'packets.connack.sent': 2,
      'packets.connack.error': 0,
      'client.connected': 2,
      'session.created': 2,
      'packets.subscribe.received': 1,
      'client.subscribe': 1,
      'packets.suback.sent': 1,
      'client.authorize': 4,
      'authorization.allow': 4,
      'authorization.nomatch': 4,
      'authorization.deny': 0,
      'messages.received': 3,
      'messages.qos0.received': 1,
      'messages.qos1.received': 1,
      'messages.qos2.received': 1,
      'messages.publish': 3,
      'packets.publish.received': 3,
      'packets.puback.sent': 1,
      'packets.pubrec.sent': 1,
      'packets.pubrel.received': 1,
      'packets.pubcomp.sent': 1,
      'messages.sent': 3,
      'messages.qos0.sent': 1,
      'messages.qos1.sent': 1,
      'messages.qos2.sent': 1,
      'packets.publish.sent': 3,
      'messages.delivered': 3,
      'packets.puback.received': 1,
      'packets.pubrec.received': 1,
      'packets.pubrel.sent': 1,
      'packets.pubcomp.received': 1,
      'messages.acked': 2,
      'packets.unsubscribe.received': 1,
      'client.unsubscribe': 1,
      'packets.unsuback.sent': 1,
      'packets.disconnect.received': 2,
      'client.disconnected': 2,
      'session.terminated': 2,
      'packets.received': 13,
      'packets.sent': 11,
      'messages.dropped': 0,
      'delivery.dropped': 0,
    })
    expect(after['bytes.received']).toBeGreaterThan(before['bytes.received'])
    expect(after['bytes.sent']).toBeGreaterThan(before['bytes.sent'])
  })

  it("does not count the broker's own $SYS messages as published or dropped, as EMQX", async () => {
    const broker = suite.t.server.broker!
    const sysDropped: string[] = []
    const unhook = broker.hooks.add('message.dropped', (message) => {
      if (message.topic.startsWith('$SYS/')) sysDropped.push(message.topic)
    })
    await put('/configs/sys_topics', { sys_event_messages: { client_connected: true } })
    try {
      const before = await metrics()
      await suite.t.connect({ clientId: 'mt-sys' })
      // Nobody subscribes to $SYS here: the event message is published and dropped, uncounted.
      await waitFor(() => sysDropped.includes('$SYS/brokers/emqx@127.0.0.1/clients/mt-sys/connected'), 'the connected event')
      await grows(before, { 'client.connected': 1, 'messages.publish': 0, 'messages.dropped': 0, 'messages.dropped.no_subscribers': 0 })
    } finally {
      unhook()
      await put('/configs/sys_topics', { sys_event_messages: { client_connected: false } })
    }
  })

  it('counts PINGREQ, stray acknowledgements (missed) and a reused QoS 2 packet id (inuse)', async () => {
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'mt-raw' }))
    await raw.next('connack')
    const before = await metrics()
    raw.send({ cmd: 'pingreq' })
    await raw.next('pingresp')
    raw.send({ cmd: 'puback', messageId: 701 })
    raw.send({ cmd: 'pubrec', messageId: 702 })
    await raw.next('pubrel', (p) => p.messageId === 702)
    raw.send({ cmd: 'pubcomp', messageId: 703 })
    raw.send({ cmd: 'pubrel', messageId: 704 })
    await raw.next('pubcomp', (p) => p.messageId === 704)
    // The same QoS 2 id twice before its PUBREL: delivered once, the second answered with 0x91.
    raw.send({ cmd: 'publish', topic: 'raw/nobody', payload: Buffer.from('x'), qos: 2, messageId: 9, retain: false, dup: false })
    raw.send({ cmd: 'publish', topic: 'raw/nobody', payload: Buffer.from('x'), qos: 2, messageId: 9, retain: false, dup: true })
    await waitFor(() => raw.packets.filter((p) => p.cmd === 'pubrec').length === 2, 'two PUBRECs')
    expect(raw.packets.filter((p) => p.cmd === 'pubrec').map((p) => (p as { reasonCode?: number }).reasonCode)).toEqual([0x10, 0x91])
    await grows(before, {
      'packets.pingreq.received': 1,
      'packets.pingresp.sent': 1,
      'packets.puback.received': 1,
      'packets.puback.missed': 1,
      'packets.pubrec.received': 1,
      'packets.pubrec.missed': 1,
      'packets.pubrel.sent': 1,
      'packets.pubcomp.received': 1,
      'packets.pubcomp.missed': 1,
      'packets.pubrel.received': 1,
      'packets.pubrel.missed': 1,
      'packets.pubcomp.sent': 1,
      'packets.publish.received': 2,
      'packets.publish.inuse': 1,
      'packets.pubrec.sent': 2,
      'messages.received': 1,
      'messages.qos2.received': 1,
      'messages.dropped': 1,
      'messages.dropped.no_subscribers': 1,
      'packets.received': 7,
      'packets.sent': 5,
    })
  })

  it('counts QoS 2 messages refused for max_awaiting_rel and those whose PUBREL never came (await_rel_timeout)', async () => {
    expect((await put('/configs/mqtt', { max_awaiting_rel: 1, await_rel_timeout: '100ms' })).status).toBe(200)
    try {
      const before = await metrics()
      const connectRaw = async (clientId: string) => {
        const raw = rawClient(port(), 5)
        raw.send(connectPacket({ protocolVersion: 5, clientId }))
        await raw.next('connack')
        const publish = (messageId: number) =>
          raw.send({ cmd: 'publish', topic: 'rel/t', payload: Buffer.from('q2'), qos: 2, messageId, retain: false, dup: false })
        return { raw, publish }
      }
      // One more than max_awaiting_rel: dropped, and the client is disconnected with 0x93, as EMQX does.
      const full = await connectRaw('mt-rel-full')
      full.publish(1)
      await full.raw.next('pubrec', (p) => p.messageId === 1)
      expect(await client('mt-rel-full')).toMatchObject({ awaiting_rel_cnt: 1, awaiting_rel_max: 1 })
      full.publish(2)
      expect((await full.raw.next('disconnect')).reasonCode).toBe(0x93)

      // Past await_rel_timeout the first one is given up on, which makes room for the next.
      const slow = await connectRaw('mt-rel-slow')
      slow.publish(1)
      await slow.raw.next('pubrec', (p) => p.messageId === 1)
      await new Promise((resolve) => setTimeout(resolve, 150))
      slow.publish(2)
      expect((await slow.raw.next('pubrec', (p) => p.messageId === 2)).reasonCode).toBe(0x10)
      await grows(before, {
        'packets.publish.received': 4,
        'packets.publish.dropped': 1,
        'messages.dropped.receive_maximum': 1,
        'packets.disconnect.sent': 1,
        'messages.received': 3,
        'messages.qos2.received': 3,
        'messages.dropped.await_pubrel_timeout': 1,
        // The timed-out one, plus three routed to nobody.
        'messages.dropped': 4,
        'messages.dropped.no_subscribers': 3,
      })
      expect(await client('mt-rel-slow')).toMatchObject({
        awaiting_rel_cnt: 1,
        awaiting_rel_max: 1,
        'recv_msg.dropped': 1,
        'recv_msg.dropped.await_pubrel_timeout': 1,
        recv_msg: 2,
        'recv_msg.qos2': 2,
      })
    } finally {
      await put('/configs/mqtt', { max_awaiting_rel: 100, await_rel_timeout: '300s' })
    }
  })

  it('counts session creation, resumption, takeover, discarding and termination', async () => {
    const before = await metrics()
    const persistent = { protocolVersion: 5 as const, clean: false, properties: { sessionExpiryInterval: 60 } }
    const first = await suite.t.connect({ clientId: 'mt-life', ...persistent })
    await first.endAsync()
    const resumed = await suite.t.connect({ clientId: 'mt-life', ...persistent })
    expect(resumed.connected).toBe(true)
    // A second connection with the same id takes the session over; the first gets DISCONNECT 0x8E.
    const disconnected = new Promise<number | undefined>((resolve) => resumed.once('disconnect', (packet) => resolve(packet.reasonCode)))
    const taker = await suite.t.connect({ clientId: 'mt-life', ...persistent })
    expect(await disconnected).toBe(0x8e)
    await taker.endAsync()
    // Clean start throws the stored session away and starts a new one.
    await suite.t.connect({ clientId: 'mt-life', protocolVersion: 5, clean: true, properties: { sessionExpiryInterval: 60 } })
    expect((await suite.api.delete('/clients/mt-life')).status).toBe(204)
    await grows(before, {
      'session.created': 2,
      'session.resumed': 2,
      'session.takenover': 1,
      'session.discarded': 1,
      'session.terminated': 1,
      'client.connected': 4,
      'client.disconnected': 4,
      'packets.disconnect.sent': 2,
      'packets.disconnect.received': 2,
    })
  })

  it('counts refused CONNECTs: a bad client id and a banned client', async () => {
    const before = await metrics()
    const v4 = rawClient(port(), 4)
    // MQTT 3.1.1 CONNECT with an empty client id and no clean session (mqtt-packet will not encode it).
    v4.send(Buffer.from([0x10, 12, 0, 4, ...Buffer.from('MQTT'), 4, 0x00, 0, 60, 0, 0]))
    expect((await v4.next('connack')).returnCode).toBe(2)
    expect((await suite.api.post('/banned', { as: 'clientid', who: 'mt-banned' })).status).toBeLessThan(300)
    try {
      const v5 = rawClient(port(), 5)
      v5.send(connectPacket({ protocolVersion: 5, clientId: 'mt-banned' }))
      expect((await v5.next('connack')).reasonCode).toBe(0x8a)
    } finally {
      await suite.api.delete('/banned/clientid/mt-banned')
    }
    await grows(before, {
      'client.connect': 2,
      'packets.connect.received': 2,
      'client.connack': 2,
      'packets.connack.sent': 2,
      'packets.connack.error': 2,
      'packets.connack.auth_error': 1,
      'authentication.failure': 1,
      'client.connected': 0,
      'session.created': 0,
    })
  })

  it('counts deliveries dropped for No Local, size, a full queue, QoS 0 without mqueue_store_qos0, and expiry', async () => {
    const persistent = { protocolVersion: 5 as const, clean: false, properties: { sessionExpiryInterval: 60 } }
    const pub = await suite.t.connect({ clientId: 'dd-pub', protocolVersion: 5 })
    let before = await metrics()

    // No Local: the publisher's own subscription does not get its message.
    const self = await suite.t.connect({ clientId: 'dd-self', protocolVersion: 5 })
    await self.subscribeAsync('dd/self', { qos: 0, nl: true })
    await self.publishAsync('dd/self', 'mine', { qos: 1 })
    before = await grows(before, { 'delivery.dropped': 1, 'delivery.dropped.no_local': 1, 'messages.dropped.no_subscribers': 0 })

    // Too large for the client's Maximum Packet Size.
    const small = await suite.t.connect({ clientId: 'dd-small', protocolVersion: 5, properties: { maximumPacketSize: 64 } })
    await small.subscribeAsync('dd/big', { qos: 0 })
    await pub.publishAsync('dd/big', 'x'.repeat(200), { qos: 0 })
    before = await grows(before, { 'delivery.dropped': 1, 'delivery.dropped.too_large': 1 })
    expect(await client('dd-small')).toMatchObject({ 'send_msg.dropped': 1, 'send_msg.dropped.too_large': 1, send_msg: 0 })

    // A queue of 2 for a client that is away: the third QoS 1 message pushes the oldest out.
    expect((await put('/configs/mqtt', { max_mqueue_len: 2 })).status).toBe(200)
    const away = await suite.t.connect({ clientId: 'dd-away', ...persistent })
    await away.subscribeAsync('dd/q', { qos: 1 })
    await away.endAsync()
    for (const payload of ['q1', 'q2', 'q3']) await pub.publishAsync('dd/q', payload, { qos: 1 })
    before = await grows(before, { 'delivery.dropped': 1, 'delivery.dropped.queue_full': 1 })
    const queued = await client('dd-away')
    expect(queued).toMatchObject({ mqueue_len: 2, mqueue_max: 2, mqueue_dropped: 1, 'send_msg.dropped': 1, 'send_msg.dropped.queue_full': 1 })
    expect(queued.heap_size).toBeGreaterThanOrEqual(4)

    // QoS 0 for a client that is away, with mqueue_store_qos0 off.
    expect((await put('/configs/mqtt', { mqueue_store_qos0: false, max_mqueue_len: 1000 })).status).toBe(200)
    const away0 = await suite.t.connect({ clientId: 'dd-away0', ...persistent })
    await away0.subscribeAsync('dd/q0', { qos: 0 })
    await away0.endAsync()
    await pub.publishAsync('dd/q0', 'gone', { qos: 0 })
    before = await grows(before, { 'delivery.dropped': 1, 'delivery.dropped.qos0_msg': 1 })
    expect((await client('dd-away0')).mqueue_len).toBe(0)

    // A message that expires while its client is away is dropped when the client comes back.
    const late = await suite.t.connect({ clientId: 'dd-late', ...persistent })
    await late.subscribeAsync('dd/exp', { qos: 1 })
    await late.endAsync()
    await pub.publishAsync('dd/exp', 'stale', { qos: 1, properties: { messageExpiryInterval: 1 } })
    await new Promise((resolve) => setTimeout(resolve, 1100))
    await suite.t.connect({ clientId: 'dd-late', ...persistent })
    before = await grows(before, { 'delivery.dropped': 1, 'delivery.dropped.expired': 1 })
    expect(await client('dd-late')).toMatchObject({ 'send_msg.dropped': 1, 'send_msg.dropped.expired': 1, send_msg: 0 })

    // Nobody subscribed at all.
    await pub.publishAsync('dd/nobody', 'void', { qos: 0 })
    await grows(before, { 'messages.dropped': 1, 'messages.dropped.no_subscribers': 1, 'delivery.dropped': 0 })

    await put('/configs/mqtt', { mqueue_store_qos0: true })
    for (const id of ['dd-away', 'dd-away0', 'dd-late']) await suite.api.delete(`/clients/${id}`)
  })

  it('counts authorization results of an authorizer, superusers, and refused PUBLISH and SUBSCRIBE', async () => {
    const broker = suite.t.server.broker!
    // An authorization source the way a feature plugs in: first answer wins, none means nomatch.
    const removeAuthz = broker.hooks.add('client.authorize', (_info, _action, topic) =>
      topic.startsWith('deny/') ? 'deny' : topic.startsWith('allow/') ? 'allow' : undefined,
    )
    const removeAuthn = broker.hooks.add('client.authenticate', (info) => (info.clientid === 'az-super' ? { result: 'allow', isSuperuser: true } : undefined))
    try {
      const before = await metrics()
      const c = await suite.t.connect({ clientId: 'az-user', protocolVersion: 5 })
      expect(await subackCodes(c, ['deny/t', 'allow/t', 'other/t'], { qos: 1 })).toEqual([0x87, 1, 1])
      // mqtt.js rejects a PUBACK with a failure code.
      await expect(c.publishAsync('deny/t', 'no', { qos: 1 })).rejects.toThrow(/Not authorized/)
      await c.publishAsync('allow/t', 'yes', { qos: 0 })
      const superuser = await suite.t.connect({ clientId: 'az-super', protocolVersion: 5 })
      expect(await subackCodes(superuser, ['deny/t'], { qos: 0 })).toEqual([0])
      await grows(before, {
        'client.authorize': 6,
        'authorization.allow': 4,
        'authorization.deny': 2,
        'authorization.matched.allow': 2,
        'authorization.matched.deny': 2,
        'authorization.nomatch': 1,
        'authorization.superuser': 1,
        'packets.subscribe.auth_error': 1,
        'packets.publish.auth_error': 1,
        'client.auth.anonymous': 1,
        'authentication.success': 2,
        'authentication.success.anonymous': 1,
      })
      expect(await client('az-user')).toMatchObject({ recv_msg: 2, 'recv_msg.dropped': 1 })
    } finally {
      removeAuthz()
      removeAuthn()
    }
  })

  it('counts SUBSCRIBE and PUBLISH packets refused by the MQTT limits', async () => {
    expect((await put('/configs/mqtt', { max_topic_levels: 3 })).status).toBe(200)
    try {
      const before = await metrics()
      const c = await suite.t.connect({ clientId: 'lim-1', protocolVersion: 5 })
      expect(await subackCodes(c, ['a/b/c', 'a/b/c/d'])).toEqual([0, 0x8f])
      const gone = new Promise<number | undefined>((resolve) => c.once('disconnect', (packet) => resolve(packet.reasonCode)))
      c.publish('a/b/c/d', 'deep')
      expect(await gone).toBe(0x90)
      await grows(before, { 'packets.subscribe.received': 1, 'packets.subscribe.error': 1, 'packets.publish.error': 1, 'packets.disconnect.sent': 1 })
    } finally {
      await put('/configs/mqtt', { max_topic_levels: 128 })
    }
  })

  it('counts delayed and retained publishes, with their /stats figures', async () => {
    const before = await metrics()
    const statsBefore = await stats()
    const c = await suite.t.connect({ clientId: 'dr-pub' })
    await c.publishAsync('$delayed/600/dr/later', 'later', { qos: 1 })
    await c.publishAsync('dr/kept', 'kept', { qos: 1, retain: true })
    await grows(before, { 'messages.delayed': 1, 'messages.retained': 1 })
    const now = await stats()
    expect(now['delayed.count'] - statsBefore['delayed.count']).toBe(1)
    expect(now['retained.count'] - statsBefore['retained.count']).toBe(1)
    expect(now['delayed.max']).toBeGreaterThanOrEqual(now['delayed.count'])
    expect(now['retained.max']).toBeGreaterThanOrEqual(now['retained.count'])
    // Clearing a topic, or a message the retainer refuses as too large, is not counted.
    const counted = await metrics()
    await c.publishAsync('dr/kept', '', { qos: 1, retain: true })
    await waitFor(async () => (await stats())['retained.count'] === statsBefore['retained.count'], 'the retained message cleared')
    expect((await put('/mqtt/retainer', { max_payload_size: '8B' })).status).toBe(200)
    try {
      await c.publishAsync('dr/big', 'far more than eight bytes', { qos: 1, retain: true })
      await c.publishAsync('dr/small', 'tiny', { qos: 1, retain: true })
      await grows(counted, { 'messages.retained': 1 })
      expect((await stats())['retained.count']).toBe(statsBefore['retained.count'] + 1)
    } finally {
      await put('/mqtt/retainer', { max_payload_size: '1MB' })
      await c.publishAsync('dr/small', '', { qos: 1, retain: true })
    }
  })

  it("reports a client's traffic, inflight, queue and limits under EMQX's names, in /clients and /clients/{id}", async () => {
    const sub = await suite.t.connect({ clientId: 'cc-sub', protocolVersion: 5 })
    const got: string[] = []
    sub.on('message', (_t, payload) => got.push(payload.toString()))
    await sub.subscribeAsync('cc/#', { qos: 2 })
    const pub = await suite.t.connect({ clientId: 'cc-pub' })
    await pub.publishAsync('cc/0', 'a', { qos: 0 })
    await pub.publishAsync('cc/1', 'b', { qos: 1 })
    await pub.publishAsync('cc/2', 'c', { qos: 2 })
    await waitFor(() => got.length === 3, 'three deliveries')
    const s = await waitFor(async () => {
      const record = await client('cc-sub')
      return record.recv_pkt === 5 ? record : undefined
    }, 'the subscriber to acknowledge all')
    const p = await client('cc-pub')
    // Publisher (MQTT 3.1.1): CONNECT, 3 PUBLISH, PUBREL in; CONNACK, PUBACK, PUBREC, PUBCOMP out (4 bytes each).
    expect(p).toMatchObject({ recv_pkt: 5, recv_msg: 3, 'recv_msg.qos0': 1, 'recv_msg.qos1': 1, 'recv_msg.qos2': 1, send_pkt: 4, send_cnt: 4, send_oct: 16, send_msg: 0 })
    // Subscriber: CONNECT, SUBSCRIBE, PUBACK, PUBREC, PUBCOMP in; CONNACK, SUBACK, 3 PUBLISH, PUBREL out.
    expect(s).toMatchObject({ send_pkt: 6, send_msg: 3, 'send_msg.qos0': 1, 'send_msg.qos1': 1, 'send_msg.qos2': 1, recv_msg: 0, inflight_cnt: 0, subscriptions_cnt: 1, subscriptions_max: 'infinity', mqueue_len: 0, mqueue_max: 1000, awaiting_rel_max: 100, inflight_max: 32, 'send_msg.dropped': 0 })
    for (const record of [s, p]) {
      expect(record.recv_oct).toBeGreaterThan(0)
      expect(record.recv_cnt).toBeGreaterThanOrEqual(1)
      expect(record.reductions).toBe(record.recv_pkt + record.send_pkt)
      expect(typeof record.heap_size).toBe('number')
      expect(typeof record.mailbox_len).toBe('number')
    }
    const listed = (await suite.api.get('/clients?like_clientid=cc-')).body.data
    expect(listed.find((r: { clientid: string }) => r.clientid === 'cc-pub')).toMatchObject({ recv_pkt: 5, send_oct: 16, recv_msg: 3 })

    // A member that never acknowledges: its messages stay in flight; the held payloads count in heap_size.
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'cc-silent' }))
    await raw.next('connack')
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'cc/#', qos: 1 }] })
    await raw.next('suback')
    await pub.publishAsync('cc/x', 'p'.repeat(100), { qos: 1 })
    await pub.publishAsync('cc/y', 'q'.repeat(100), { qos: 1 })
    await waitFor(() => raw.packets.filter((packet) => packet.cmd === 'publish').length === 2, 'two unacknowledged deliveries')
    const silent = await client('cc-silent')
    expect(silent).toMatchObject({ inflight_cnt: 2, inflight_max: 32, send_msg: 2, 'send_msg.qos1': 2 })
    expect(silent.heap_size).toBeGreaterThanOrEqual(200)

    expect((await put('/configs/mqtt', { max_subscriptions: 5 })).status).toBe(200)
    expect((await client('cc-sub')).subscriptions_max).toBe(5)
    await put('/configs/mqtt', { max_subscriptions: 'infinity' })
  })

  it('answers /stats with current counts and high-water marks, per node or aggregated', async () => {
    const base = await stats()
    const a = await suite.t.connect({ clientId: 'st-a', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 60 } })
    const b = await suite.t.connect({ clientId: 'st-b', protocolVersion: 5 })
    await a.subscribeAsync(['st/plain', '$share/g/st/shared', '$queue/st/queue'], { qos: 1 })
    await b.subscribeAsync('st/plain', { qos: 0 })
    const now = await stats()
    const grew = (name: string) => now[name] - base[name]
    expect(grew('connections.count')).toBe(2)
    expect(grew('live_connections.count')).toBe(2)
    expect(grew('sessions.count')).toBe(2)
    expect(grew('cluster_sessions.count')).toBe(2)
    expect(now['durable_subscriptions.count']).toBe(0)
    expect(grew('channels.count')).toBe(2)
    expect(grew('subscriptions.count')).toBe(4)
    expect(grew('suboptions.count')).toBe(4)
    // Subscribers are the plain subscriptions; the shared ones ($share, $queue) are not among them.
    expect(grew('subscribers.count')).toBe(2)
    expect(grew('subscriptions.shared.count')).toBe(2)
    expect(grew('topics.count')).toBe(3)
    for (const name of ['connections', 'live_connections', 'sessions', 'cluster_sessions', 'topics', 'subscriptions', 'subscriptions.shared', 'subscribers', 'suboptions', 'retained', 'delayed']) {
      expect(now[`${name}.max`], name).toBeGreaterThanOrEqual(now[`${name}.count`])
    }

    // A persistent session whose client went away still counts as a connection and a session, not a live one.
    await a.endAsync()
    await waitFor(async () => (await stats())['live_connections.count'] === base['live_connections.count'] + 1, 'one live connection')
    const away = await stats()
    expect(away['connections.count']).toBe(now['connections.count'])
    expect(away['sessions.count']).toBe(now['sessions.count'])
    expect(away['live_connections.max']).toBeGreaterThanOrEqual(now['live_connections.count'])
    await b.unsubscribeAsync('st/plain')
    const fewer = await stats()
    expect(fewer['subscriptions.count']).toBe(now['subscriptions.count'] - 1)
    expect(fewer['subscriptions.max']).toBeGreaterThanOrEqual(now['subscriptions.count'])

    const perNode = await suite.api.get('/stats?aggregate=false')
    expect(perNode.status).toBe(200)
    expect(perNode.body).toEqual([expect.objectContaining({ node: 'emqx@127.0.0.1', 'subscriptions.count': fewer['subscriptions.count'] })])
    expect((await suite.api.get('/stats')).body).toHaveLength(1)
    const aggregated = (await suite.api.get('/stats?aggregate=true')).body
    expect(Array.isArray(aggregated)).toBe(false)
    expect(aggregated).not.toHaveProperty('node')
    await suite.api.delete('/clients/st-a')
  })

  it('answers /metrics per node or aggregated, and refuses a bad aggregate with 400', async () => {
    const perNode = await suite.api.get('/metrics')
    expect(perNode.status).toBe(200)
    expect(perNode.body).toHaveLength(1)
    expect(perNode.body[0].node).toBe('emqx@127.0.0.1')
    const aggregated = (await suite.api.get('/metrics?aggregate=true')).body
    expect(aggregated).not.toHaveProperty('node')
    const { node: _node, ...counters } = perNode.body[0]
    expect(Object.keys(counters).sort()).toEqual(Object.keys(aggregated).sort())
    for (const [name, value] of Object.entries(aggregated)) expect(Number.isInteger(value), name).toBe(true)
    for (const path of ['/metrics?aggregate=maybe', '/stats?aggregate=1']) {
      const bad = await suite.api.get(path)
      expect(bad.status, path).toBe(400)
      expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.any(String) })
    }
  })
})
