// Will messages and Will Delay Interval, Message Expiry Interval, topic aliases both ways, the
// client's Maximum Packet Size, subscription identifiers, No Local, and the MQTT 5 properties that
// travel with a message (response topic, correlation data, user properties, format and content type).
import type { IPublishPacket } from 'mqtt-packet'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultMqttSettings } from '../server/broker/settings.ts'
import { collect, connectPacket, destroyRawClients, rawClient, serverPerSuite, waitFor } from './support/server.ts'

describe('MQTT protocol: MQTT 5 properties, wills, expiry, aliases, sizes', () => {
  const suite = serverPerSuite(destroyRawClients)
  afterEach(() => {
    suite.t.server.broker!.configure(defaultMqttSettings)
  })
  const port = () => suite.t.server.mqttPort
  const record = async (clientid: string) => (await suite.api.get(`/clients/${clientid}`)).body
  const metrics = async () => (await suite.api.get('/metrics?aggregate=true')).body as Record<string, number>

  async function watcher(clientid: string, topic: string) {
    const client = await suite.t.connect({ clientId: clientid, protocolVersion: 5 })
    await client.subscribeAsync(topic, { qos: 1 })
    return { client, got: collect(client) }
  }

  it('publishes the will when a connection drops, not after a normal DISCONNECT, and after DISCONNECT 0x04', async () => {
    const { client, got } = await watcher('will-watch', 'wills/#')
    const will = (name: string) => ({ topic: `wills/${name}`, payload: Buffer.from(`${name} died`), qos: 1 as const, retain: false })

    const dropped = rawClient(port(), 4)
    dropped.send(connectPacket({ protocolVersion: 4, clientId: 'will-drop', will: will('drop') }))
    await dropped.next('connack')
    const polite = rawClient(port(), 5)
    polite.send(connectPacket({ protocolVersion: 5, clientId: 'will-polite', will: will('polite') }))
    await polite.next('connack')
    const withWill = rawClient(port(), 5)
    withWill.send(connectPacket({ protocolVersion: 5, clientId: 'will-04', will: will('04') }))
    await withWill.next('connack')

    dropped.socket.destroy()
    polite.send({ cmd: 'disconnect', reasonCode: 0 })
    withWill.send({ cmd: 'disconnect', reasonCode: 0x04 })
    await Promise.all([polite.closed, withWill.closed])
    await waitFor(() => got.length === 2, 'two wills')
    // A marker after both: the polite client's will never comes.
    await client.publishAsync('wills/marker', 'end', { qos: 1 })
    await waitFor(() => got.length === 3, 'the marker')
    expect(got.map((m) => m.payload).sort()).toEqual(['04 died', 'drop died', 'end'])
  })

  it('sends a will with its MQTT 5 properties (content type, user properties, response topic), never the Will Delay Interval itself', async () => {
    const sub = await suite.t.connect({ clientId: 'will-props-watch', protocolVersion: 5 })
    await sub.subscribeAsync('will-props/#', { qos: 1 })
    const packets: IPublishPacket[] = []
    sub.on('message', (_t, _p, packet) => packets.push(packet))
    const raw = rawClient(port(), 5)
    raw.send(
      connectPacket({
        protocolVersion: 5,
        clientId: 'will-props',
        will: {
          topic: 'will-props/gone',
          payload: Buffer.from('{"gone":true}'),
          qos: 1,
          retain: false,
          properties: { willDelayInterval: 0, contentType: 'application/json', userProperties: { why: 'test' }, responseTopic: 'will-props/reply', payloadFormatIndicator: true },
        },
      }),
    )
    await raw.next('connack')
    raw.socket.destroy()
    await waitFor(() => packets.length === 1, 'the will')
    expect(packets[0].properties).toMatchObject({ contentType: 'application/json', userProperties: { why: 'test' }, responseTopic: 'will-props/reply', payloadFormatIndicator: true })
    expect(packets[0].properties).not.toHaveProperty('willDelayInterval')
  })

  it('waits for the Will Delay Interval, cancels the will when the client comes back, and sends it when the session ends first', async () => {
    const { client, got } = await watcher('delay-watch', 'delayed-wills/#')
    const willOf = (name: string, delay: number) => ({
      topic: `delayed-wills/${name}`,
      payload: Buffer.from(name),
      qos: 0 as const,
      retain: false,
      properties: { willDelayInterval: delay },
    })
    // Delay 1 s, session kept for 60 s: published after the delay.
    const delayed = rawClient(port(), 5)
    delayed.send(connectPacket({ protocolVersion: 5, clientId: 'will-delay', clean: false, properties: { sessionExpiryInterval: 60 }, will: willOf('delayed', 1) }))
    await delayed.next('connack')
    // Delay 60 s but the session ends after 1 s: published when the session ends.
    const ending = rawClient(port(), 5)
    ending.send(connectPacket({ protocolVersion: 5, clientId: 'will-session-end', properties: { sessionExpiryInterval: 1 }, will: willOf('session-end', 60) }))
    await ending.next('connack')
    // Delay 60 s, the client reconnects: never published.
    const back = rawClient(port(), 5)
    back.send(connectPacket({ protocolVersion: 5, clientId: 'will-back', clean: false, properties: { sessionExpiryInterval: 300 }, will: willOf('cancelled', 60) }))
    await back.next('connack')

    for (const raw of [delayed, ending, back]) raw.socket.destroy()
    await waitFor(async () => (await record('will-back')).connected === false, 'will-back offline')
    const again = rawClient(port(), 5)
    again.send(connectPacket({ protocolVersion: 5, clientId: 'will-back', clean: false, properties: { sessionExpiryInterval: 300 } }))
    expect(await again.next('connack')).toMatchObject({ sessionPresent: true })

    await waitFor(() => got.length === 2, 'the two wills due', 10_000)
    expect(got.map((m) => m.payload).sort()).toEqual(['delayed', 'session-end'])
    expect((await suite.api.get('/clients/will-session-end')).status).toBe(404)
    // will-back's will would only be due in a minute; it is gone for good, as a marker shows.
    await client.publishAsync('delayed-wills/marker', 'end', { qos: 1 })
    await waitFor(() => got.length === 3, 'the marker')
    expect(got[2].payload).toBe('end')
    again.send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 0 } })
    await suite.api.delete('/clients/will-delay')
  })

  it('drops a queued message whose Message Expiry Interval ran out, and forwards the remaining interval of one still valid', async () => {
    const options = { clientId: 'expiry-sub', protocolVersion: 5 as const, clean: false, properties: { sessionExpiryInterval: 300 } }
    const sub = await suite.t.connect(options)
    await sub.subscribeAsync('expiry/#', { qos: 1 })
    await sub.endAsync()
    await waitFor(async () => (await record('expiry-sub')).connected === false, 'offline')
    const before = await metrics()
    const pub = await suite.t.connect({ clientId: 'expiry-pub', protocolVersion: 5 })
    await pub.publishAsync('expiry/short', 'stale', { qos: 1, properties: { messageExpiryInterval: 1 } })
    await pub.publishAsync('expiry/long', 'fresh', { qos: 1, properties: { messageExpiryInterval: 100 } })
    await waitFor(async () => (await record('expiry-sub')).mqueue_len === 2, 'both queued')
    await new Promise((resolve) => setTimeout(resolve, 1100))

    const got: IPublishPacket[] = []
    await suite.t.connect(options, (c) => c.on('message', (_t, _p, packet) => got.push(packet)))
    await waitFor(() => got.length === 1, 'the fresh message')
    await pub.publishAsync('expiry/marker', 'end', { qos: 1 })
    await waitFor(() => got.length === 2, 'the marker')
    expect(got.map((p) => p.payload.toString())).toEqual(['fresh', 'end'])
    const interval = got[0].properties?.messageExpiryInterval
    expect(interval).toBeGreaterThanOrEqual(1)
    expect(interval).toBeLessThan(100)
    expect(got[1].properties?.messageExpiryInterval).toBeUndefined()
    expect((await metrics())['delivery.dropped.expired'] - before['delivery.dropped.expired']).toBe(1)
    expect((await record('expiry-sub'))['send_msg.dropped.expired']).toBe(1)
    await suite.api.delete('/clients/expiry-sub')
  })

  it('resolves client -> server topic aliases; an alias above the maximum gets 0x94, an unknown one 0x82', async () => {
    suite.t.server.broker!.configure({ max_topic_alias: 5 })
    const { got } = await watcher('alias-watch', 'alias/#')
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'aliaser' }))
    expect((await raw.next('connack')).properties?.topicAliasMaximum).toBe(5)
    const publish = (topic: string, payload: string, topicAlias: number) =>
      raw.send({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 0, retain: false, dup: false, properties: { topicAlias } })
    publish('alias/one', 'set', 1)
    publish('', 'by alias', 1)
    publish('alias/two', 'remapped', 1)
    publish('', 'by new mapping', 1)
    await waitFor(() => got.length === 4, 'four deliveries')
    expect(got.map((m) => [m.topic, m.payload])).toEqual([
      ['alias/one', 'set'],
      ['alias/one', 'by alias'],
      ['alias/two', 'remapped'],
      ['alias/two', 'by new mapping'],
    ])
    publish('alias/x', 'too high', 6)
    expect(await raw.next('disconnect')).toMatchObject({ reasonCode: 0x94 })
    await raw.closed

    const unknown = rawClient(port(), 5)
    unknown.send(connectPacket({ protocolVersion: 5, clientId: 'alias-unknown' }))
    await unknown.next('connack')
    unknown.send({ cmd: 'publish', topic: '', payload: Buffer.from('?'), qos: 0, retain: false, dup: false, properties: { topicAlias: 3 } })
    expect(await unknown.next('disconnect')).toMatchObject({ reasonCode: 0x82 })
    await unknown.closed
  })

  it("uses server -> client topic aliases up to the client's Topic Alias Maximum, and none for clients without one", async () => {
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'alias-receiver', properties: { topicAliasMaximum: 2 } }))
    await raw.next('connack')
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'out/#', qos: 0 }] })
    await raw.next('suback')
    // mqtt.js resolves the aliases it receives: its messages carry the full topics.
    const viaMqttJs = await suite.t.connect({ clientId: 'alias-mqttjs', protocolVersion: 5, properties: { topicAliasMaximum: 2 } })
    await viaMqttJs.subscribeAsync('out/#')
    const resolved = collect(viaMqttJs)
    const plain = rawClient(port(), 5)
    plain.send(connectPacket({ protocolVersion: 5, clientId: 'alias-none' }))
    await plain.next('connack')
    plain.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'out/#', qos: 0 }] })
    await plain.next('suback')

    const pub = await suite.t.connect({ clientId: 'alias-pub', protocolVersion: 5 })
    const topics = ['out/a', 'out/b', 'out/c', 'out/a', 'out/b', 'out/c']
    for (const topic of topics) await pub.publishAsync(topic, topic, { qos: 0 })
    const received = () => raw.packets.filter((p): p is IPublishPacket => p.cmd === 'publish')
    await waitFor(() => received().length === 6 && resolved.length === 6, 'six deliveries each')
    expect(received().map((p) => [p.topic, p.properties?.topicAlias, p.payload.toString()])).toEqual([
      ['out/a', 1, 'out/a'],
      ['out/b', 2, 'out/b'],
      ['out/c', undefined, 'out/c'],
      ['', 1, 'out/a'],
      ['', 2, 'out/b'],
      ['out/c', undefined, 'out/c'],
    ])
    expect(resolved.map((m) => m.topic)).toEqual(topics)
    await waitFor(() => plain.packets.filter((p) => p.cmd === 'publish').length === 6, 'the plain client')
    const plainPublishes = plain.packets.filter((p): p is IPublishPacket => p.cmd === 'publish')
    expect(plainPublishes.map((p) => [p.topic, p.properties?.topicAlias])).toEqual(topics.map((t) => [t, undefined]))
  })

  it("never sends a client a packet above its Maximum Packet Size: dropped and counted as too_large", async () => {
    const before = await metrics()
    const small = await suite.t.connect({ clientId: 'small-max', protocolVersion: 5, properties: { maximumPacketSize: 128 } })
    await small.subscribeAsync('size/#', { qos: 1 })
    const got = collect(small)
    const pub = await suite.t.connect({ clientId: 'size-pub', protocolVersion: 5 })
    await pub.publishAsync('size/big', Buffer.alloc(200, 'b'), { qos: 1 })
    await pub.publishAsync('size/big0', Buffer.alloc(200, 'b'), { qos: 0 })
    await pub.publishAsync('size/small', 'fits', { qos: 1 })
    await waitFor(() => got.length === 1, 'the small message')
    expect(got[0]).toMatchObject({ topic: 'size/small', payload: 'fits' })
    const after = await metrics()
    expect(after['delivery.dropped.too_large'] - before['delivery.dropped.too_large']).toBe(2)
    expect(await record('small-max')).toMatchObject({ 'send_msg.dropped.too_large': 2, inflight_cnt: 0 })
  })

  it('drops an unacknowledged message instead of resending it when the client comes back with a smaller Maximum Packet Size', async () => {
    const first = rawClient(port(), 5)
    first.send(connectPacket({ protocolVersion: 5, clientId: 'shrinks', clean: false, properties: { sessionExpiryInterval: 60 } }))
    await first.next('connack')
    first.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'shrink/t', qos: 1 }] })
    await first.next('suback')
    const pub = await suite.t.connect({ clientId: 'shrink-pub' })
    await pub.publishAsync('shrink/t', Buffer.alloc(300, 'x'), { qos: 1 })
    await first.next('publish')
    first.socket.destroy()
    await waitFor(async () => (await record('shrinks')).connected === false, 'offline')
    expect((await record('shrinks')).inflight_cnt).toBe(1)

    const again = rawClient(port(), 5)
    again.send(connectPacket({ protocolVersion: 5, clientId: 'shrinks', clean: false, properties: { sessionExpiryInterval: 0, maximumPacketSize: 100 } }))
    expect(await again.next('connack')).toMatchObject({ sessionPresent: true })
    await waitFor(async () => (await record('shrinks')).inflight_cnt === 0, 'the oversized message dropped')
    expect((await record('shrinks'))['send_msg.dropped.too_large']).toBe(1)
    await pub.publishAsync('shrink/t', 'small', { qos: 1 })
    const delivered = await again.next('publish')
    expect(delivered.payload.toString()).toBe('small')
    expect(again.packets.filter((p) => p.cmd === 'publish')).toHaveLength(1)
  })

  it('gives each delivery the Subscription Identifier of the subscription it matched', async () => {
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'subids' }))
    await raw.next('connack')
    raw.send({ cmd: 'subscribe', messageId: 1, properties: { subscriptionIdentifier: 7 }, subscriptions: [{ topic: 'subid/+', qos: 0 }] })
    raw.send({ cmd: 'subscribe', messageId: 2, properties: { subscriptionIdentifier: 300 }, subscriptions: [{ topic: 'subid/#', qos: 0 }] })
    raw.send({ cmd: 'subscribe', messageId: 3, subscriptions: [{ topic: 'subid/none/+', qos: 0 }] })
    await waitFor(() => raw.packets.filter((p) => p.cmd === 'suback').length === 3, 'three SUBACKs')
    const pub = await suite.t.connect({ clientId: 'subid-pub', protocolVersion: 5 })
    await pub.publishAsync('subid/x', 'two matches')
    await pub.publishAsync('subid/none/y', 'deep')
    const received = () => raw.packets.filter((p): p is IPublishPacket => p.cmd === 'publish')
    await waitFor(() => received().length === 4, 'four deliveries')
    const byPayload = received().map((p) => [p.payload.toString(), p.properties?.subscriptionIdentifier])
    expect(byPayload.filter(([payload]) => payload === 'two matches').map(([, id]) => id).sort()).toEqual([300, 7])
    expect(byPayload.filter(([payload]) => payload === 'deep').map(([, id]) => id ?? 'none').sort()).toEqual([300, 'none'])
  })

  it('does not send a No Local subscriber its own messages, but sends them to others', async () => {
    const self = await suite.t.connect({ clientId: 'nl-self', protocolVersion: 5 })
    await self.subscribeAsync('nl/t', { qos: 1, nl: true })
    await self.subscribeAsync('nl/marker', { qos: 1 })
    const other = await suite.t.connect({ clientId: 'nl-other', protocolVersion: 5 })
    await other.subscribeAsync('nl/t', { qos: 1 })
    const selfGot = collect(self)
    const otherGot = collect(other)
    await self.publishAsync('nl/t', 'mine', { qos: 1 })
    await other.publishAsync('nl/t', 'theirs', { qos: 1 })
    await self.publishAsync('nl/marker', 'end', { qos: 1 })
    await waitFor(() => selfGot.length === 2 && otherGot.length === 2, 'deliveries')
    expect(selfGot.map((m) => m.payload)).toEqual(['theirs', 'end'])
    expect(otherGot.map((m) => m.payload)).toEqual(['mine', 'theirs'])
  })

  it('passes response topic, correlation data, user properties, payload format and content type through unchanged', async () => {
    const sub = await suite.t.connect({ clientId: 'props-sub', protocolVersion: 5 })
    await sub.subscribeAsync('props/t', { qos: 1 })
    const packets: IPublishPacket[] = []
    sub.on('message', (_t, _p, packet) => packets.push(packet))
    const v4sub = await suite.t.connect({ clientId: 'props-v4', protocolVersion: 4 })
    await v4sub.subscribeAsync('props/t', { qos: 1 })
    const v4got = collect(v4sub)
    const pub = await suite.t.connect({ clientId: 'props-pub', protocolVersion: 5 })
    const properties = {
      responseTopic: 'props/reply',
      correlationData: Buffer.from([1, 2, 3, 250]),
      userProperties: { region: 'eu', tag: ['a', 'b'] },
      payloadFormatIndicator: true,
      contentType: 'application/json',
    }
    await pub.publishAsync('props/t', '{"ok":true}', { qos: 1, properties })
    await waitFor(() => packets.length === 1 && v4got.length === 1, 'the deliveries')
    expect(packets[0].properties).toMatchObject({
      responseTopic: 'props/reply',
      userProperties: { region: 'eu', tag: ['a', 'b'] },
      payloadFormatIndicator: true,
      contentType: 'application/json',
    })
    expect(Buffer.from(packets[0].properties!.correlationData!)).toEqual(properties.correlationData)
    expect(v4got[0].payload).toBe('{"ok":true}')

    // A request/response round trip through the response topic.
    const responder = collect(pub)
    await pub.subscribeAsync('props/reply', { qos: 1 })
    await sub.publishAsync(packets[0].properties!.responseTopic!, 'pong', { qos: 1, properties: { correlationData: packets[0].properties!.correlationData } })
    await waitFor(() => responder.length === 1, 'the response')
    expect(responder[0]).toMatchObject({ topic: 'props/reply', payload: 'pong' })
  })
})
