// Topic names and filters: `#` and `+` placement, level limits, wildcard-free publish topics
// (DISCONNECT 0x90), SUBACK 0x8F for bad filters, and `$` topics hidden from leading wildcards.
import { afterEach, describe, expect, it } from 'vitest'
import { defaultMqttSettings } from '../server/broker/settings.ts'
import { collect, connectPacket, destroyRawClients, rawClient, serverPerSuite, subackCodes, waitFor } from './support/server.ts'

describe('MQTT protocol: topics', () => {
  const suite = serverPerSuite(destroyRawClients)
  afterEach(() => {
    suite.t.server.broker!.configure(defaultMqttSettings)
  })
  const port = () => suite.t.server.mqttPort

  it('grants valid filters and answers invalid ones with 0x8F (MQTT 5) or 0x80 (MQTT 3.1.1), each in its own slot', async () => {
    // mqtt.js refuses to send invalid filters, so a raw client sends them.
    const filters = ['a/+/c', 'a/#', '#', '+', '+/+', 'a/b#', 'a/#/c', 'a+/b', '#/a', 'a/+b', '$share/g/ok/+', '$share/g+/x', '$share/g', '$share//x']
    const expected5 = [1, 1, 1, 1, 1, 0x8f, 0x8f, 0x8f, 0x8f, 0x8f, 1, 0x8f, 0x8f, 0x8f]
    for (const protocolVersion of [5, 4] as const) {
      const raw = rawClient(port(), protocolVersion)
      raw.send(connectPacket({ protocolVersion, clientId: `filters-${protocolVersion}` }))
      await raw.next('connack')
      raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: filters.map((topic) => ({ topic, qos: 1 as const })) })
      const expected = protocolVersion === 5 ? expected5 : expected5.map((code) => (code === 0x8f ? 0x80 : code))
      expect((await raw.next('suback')).granted, `MQTT ${protocolVersion}`).toEqual(expected)
    }
    // Only the valid ones became subscriptions.
    const subs = (await suite.api.get('/clients/filters-5/subscriptions')).body.map((s: { topic: string }) => s.topic).sort()
    expect(subs).toEqual(['#', '$share/g/ok/+', '+', '+/+', 'a/#', 'a/+/c'])
  })

  it('matches + as exactly one level and # as the parent level and everything below', async () => {
    const c = await suite.t.connect({ clientId: 'matcher', protocolVersion: 5 })
    await c.subscribeAsync(['m/+/x', 'm/a/#'])
    const got = collect(c)
    const pub = await suite.t.connect({ clientId: 'matcher-pub' })
    for (const topic of ['m/a/x', 'm/b/x', 'm/b/c/x', 'm/a', 'm/a/b/c', 'm//x', 'm/b', 'm/x']) await pub.publishAsync(topic, topic)
    await pub.publishAsync('m/a/marker', 'end')
    await waitFor(() => got.some((m) => m.payload === 'end'), 'the marker')
    // m/a/x matches both filters; m/b/c/x, m/b and m/x match none.
    expect(got.map((m) => m.topic).sort()).toEqual(['m//x', 'm/a', 'm/a/b/c', 'm/a/marker', 'm/a/x', 'm/a/x', 'm/b/x'].sort())
  })

  it('refuses filters and publish topics deeper than max_topic_levels', async () => {
    suite.t.server.broker!.configure({ max_topic_levels: 3 })
    const c = await suite.t.connect({ clientId: 'levels', protocolVersion: 5 })
    expect(await subackCodes(c, ['a/b/c', 'a/b/c/d', 'a/b/#', 'a/b/c/#'])).toEqual([0, 0x8f, 0, 0x8f])
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'levels-pub' }))
    await raw.next('connack')
    raw.send({ cmd: 'publish', topic: 'a/b/c', payload: Buffer.from('ok'), qos: 1, retain: false, dup: false, messageId: 1 })
    expect(await raw.next('puback')).toMatchObject({ messageId: 1 })
    raw.send({ cmd: 'publish', topic: 'a/b/c/d', payload: Buffer.from('deep'), qos: 1, retain: false, dup: false, messageId: 2 })
    expect(await raw.next('disconnect')).toMatchObject({ reasonCode: 0x90 })
    await raw.closed
  })

  it('disconnects a client publishing to a topic with wildcards: DISCONNECT 0x90 for MQTT 5, a plain close for MQTT 3.1.1', async () => {
    const watcher = await suite.t.connect({ clientId: 'wild-watch' })
    await watcher.subscribeAsync('#')
    const watched = collect(watcher)
    for (const topic of ['wild/+', 'wild/#', 'wi+ld', '#']) {
      const v5 = rawClient(port(), 5)
      v5.send(connectPacket({ protocolVersion: 5, clientId: 'wild-5' }))
      await v5.next('connack')
      v5.send({ cmd: 'publish', topic, payload: Buffer.from('x'), qos: 1, retain: false, dup: false, messageId: 1 })
      expect(await v5.next('disconnect'), topic).toMatchObject({ reasonCode: 0x90 })
      await v5.closed
      expect(v5.packets.some((p) => p.cmd === 'puback')).toBe(false)

      const v4 = rawClient(port(), 4)
      v4.send(connectPacket({ protocolVersion: 4, clientId: 'wild-4' }))
      await v4.next('connack')
      v4.send({ cmd: 'publish', topic, payload: Buffer.from('x'), qos: 0, retain: false, dup: false })
      await v4.closed
      expect(v4.packets.map((p) => p.cmd)).toEqual(['connack'])
    }
    const pub = await suite.t.connect({ clientId: 'wild-marker' })
    await pub.publishAsync('wild/marker', 'end')
    await waitFor(() => watched.some((m) => m.topic === 'wild/marker'), 'the marker')
    expect(watched.map((m) => m.topic).filter((t) => t.startsWith('wild') || t === '#')).toEqual(['wild/marker'])
  })

  it('does not match topics starting with $ by filters starting with + or #, but by an explicit $ level', async () => {
    const hash = await suite.t.connect({ clientId: 'dollar-hash', protocolVersion: 5 })
    await hash.subscribeAsync(['#', '+/status'])
    const explicit = await suite.t.connect({ clientId: 'dollar-explicit', protocolVersion: 5 })
    await explicit.subscribeAsync(['$app/+', '$app/#'])
    const hashGot = collect(hash)
    const explicitGot = collect(explicit)
    const pub = await suite.t.connect({ clientId: 'dollar-pub2' })
    await pub.publishAsync('$app/status', 'hidden from wildcards')
    await pub.publishAsync('app/status', 'plain')
    await waitFor(() => explicitGot.length === 2 && hashGot.filter((m) => m.topic === 'app/status').length === 2, 'deliveries')
    expect(hashGot.filter((m) => m.topic.startsWith('$app'))).toEqual([])
    expect(explicitGot.map((m) => m.topic)).toEqual(['$app/status', '$app/status'])
  })

  it('answers an empty topic filter and an empty publish topic as errors', async () => {
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'empty-topic' }))
    await raw.next('connack')
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: '', qos: 0 }, { topic: 'fine', qos: 0 }] })
    expect((await raw.next('suback')).granted).toEqual([0x8f, 0])
    // An empty topic without a topic alias is not a topic name.
    raw.send({ cmd: 'publish', topic: '', payload: Buffer.from('x'), qos: 0, retain: false, dup: false })
    expect(await raw.next('disconnect')).toMatchObject({ reasonCode: 0x90 })
    await raw.closed
  })

  it('refuses wildcard filters with 0xA2 and shared ones with 0x9E when those are switched off', async () => {
    suite.t.server.broker!.configure({ wildcard_subscription: false, shared_subscription: false })
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'no-wild' }))
    expect((await raw.next('connack')).properties).toMatchObject({ wildcardSubscriptionAvailable: false, sharedSubscriptionAvailable: false })
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: ['a/+', 'a/#', 'a/b', '$share/g/a/b'].map((topic) => ({ topic, qos: 0 as const })) })
    expect((await raw.next('suback')).granted).toEqual([0xa2, 0xa2, 0, 0x9e])
  })

  it('refuses subscriptions beyond max_subscriptions with 0x97 (quota exceeded); re-subscribing an existing filter still works', async () => {
    suite.t.server.broker!.configure({ max_subscriptions: 2 })
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'quota' }))
    await raw.next('connack')
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: ['q/1', 'q/2', 'q/3'].map((topic) => ({ topic, qos: 1 as const })) })
    expect((await raw.next('suback', (p) => p.messageId === 1)).granted).toEqual([1, 1, 0x97])
    raw.send({ cmd: 'subscribe', messageId: 2, subscriptions: [{ topic: 'q/1', qos: 0 }] })
    expect((await raw.next('suback', (p) => p.messageId === 2)).granted).toEqual([0])
    expect((await suite.api.get('/clients/quota')).body.subscriptions_cnt).toBe(2)
  })

  it('answers UNSUBSCRIBE per filter: 0x00 when it existed, 0x11 when it did not (MQTT 5)', async () => {
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'unsub-codes' }))
    await raw.next('connack')
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'u/a', qos: 0 }] })
    await raw.next('suback')
    raw.send({ cmd: 'unsubscribe', messageId: 2, unsubscriptions: ['u/a', 'u/never'] })
    expect(await raw.next('unsuback')).toMatchObject({ messageId: 2, granted: [0x00, 0x11] })
    expect((await suite.api.get('/clients/unsub-codes')).body.subscriptions_cnt).toBe(0)
  })
})
