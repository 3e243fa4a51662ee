// Authentication and authorization that answer later (a database or HTTP backend), seen by real
// mqtt.js clients: a client's packets keep their order behind a slow check, refusals carry the same
// reason codes as at once, failures deny, and a client leaving meanwhile is handled as EMQX does.
import type { MqttClient } from 'mqtt'
import { afterEach, describe, expect, it } from 'vitest'
import type { Connection } from '../server/broker/connection.ts'
import type { AuthDecision, AuthzAction, AuthzVerdict, ClientInfo } from '../server/broker/hooks.ts'
import { collect, connectPacket, destroyRawClients, rawClient, serverPerSuite, subackCodes, waitFor } from './support/server.ts'

/** Checks held until the test answers them: the backend that answers later, without timers. */
function gate<T>() {
  const held: Array<{ key: string; answer: (value: T) => void; fail: (error: Error) => void }> = []
  return {
    held,
    hold(key: string): Promise<T> {
      return new Promise<T>((resolve, reject) => held.push({ key, answer: resolve, fail: reject }))
    },
    /** Waits until a check for `key` is held, and returns its answer functions. */
    async next(key: string) {
      return waitFor(() => held.find((entry) => entry.key === key), `a held check for ${key}`)
    },
  }
}

/** A value a microtask later: asynchronous, but with nothing to wait for. */
const later = <T,>(value: T): Promise<T> => new Promise((resolve) => setImmediate(() => resolve(value)))

describe('asynchronous authentication and authorization', () => {
  const suite = serverPerSuite(destroyRawClients)
  const broker = () => suite.t.server.broker!
  const counter = (name: string) => (broker().metrics.snapshot() as Record<string, number>)[name]
  const removals: Array<() => void> = []
  afterEach(() => {
    for (const remove of removals.splice(0)) remove()
    broker().access.settings = { noMatch: 'allow', denyAction: 'ignore' }
    broker().access.cache.settings = { ...broker().access.cache.settings, enable: false }
    broker().access.cache.clear()
  })
  const authorizer = (callback: (info: ClientInfo, action: AuthzAction, topic: string) => AuthzVerdict | Promise<AuthzVerdict>) =>
    removals.push(broker().hooks.add('client.authorize', callback))
  const authenticator = (callback: (info: ClientInfo) => AuthDecision | undefined | Promise<AuthDecision | undefined>) =>
    removals.push(broker().hooks.add('client.authenticate', callback))
  /** Holds every PUBLISH to `slow/...` until the test answers it. */
  const holdSlowPublishes = () => {
    const slow = gate<AuthzVerdict>()
    authorizer((_info, action, topic) => (action === 'publish' && topic.startsWith('slow/') ? slow.hold(topic) : undefined))
    return slow
  }
  /** What a new subscriber to `filters` receives from now on. */
  const watch = async (clientId: string, filters: string[]) => {
    const sub = await suite.t.connect({ clientId })
    await sub.subscribeAsync([...filters, 'marker'], { qos: 1 })
    return collect(sub)
  }
  /** Publishes `marker` from another client and waits until `got` has it: whatever came before it has arrived. */
  const marker = async (got: ReturnType<typeof collect>) => {
    const other = await suite.t.connect({ clientId: `marker-${got.length}` })
    await other.publishAsync('marker', 'm', { qos: 1 })
    await waitFor(() => got.some((m) => m.topic === 'marker'), 'the marker')
  }

  it('answers at once, without a promise, when every source does; with a promise when one answers later', async () => {
    const info = { clientid: 'probe', username: undefined, peerhost: '127.0.0.1', peerport: 1, protoVer: 5, listener: 'tcp:default', mountpoint: undefined, isSuperuser: false } as const
    authorizer((_info, _action, topic) => (topic === 'sync/deny' ? 'deny' : topic.startsWith('async/') ? later('allow') : undefined))
    expect(broker().access.authorize({ ...info }, 'publish', 'plain')).toBe(true)
    expect(broker().access.authorize({ ...info }, 'publish', 'sync/deny')).toBe(false)
    const pending = broker().access.authorize({ ...info }, 'publish', 'async/t')
    expect(pending).toBeInstanceOf(Promise)
    expect(await pending).toBe(true)
  })

  it('keeps a QoS 1 publish waiting on authorization ahead of the same client\'s next publishes: deliveries and acks in order', async () => {
    const slow = gate<AuthzVerdict>()
    authorizer((_info, action, topic) => (action !== 'publish' ? undefined : topic.startsWith('slow/') ? slow.hold(topic) : topic.startsWith('async/') ? later('allow') : undefined))
    const sub = await suite.t.connect({ clientId: 'order-sub' })
    await sub.subscribeAsync('#', { qos: 1 })
    const got = collect(sub)
    const pub = await suite.t.connect({ clientId: 'order-pub', protocolVersion: 5 })
    const acks: string[] = []
    const received = counter('packets.publish.received')
    const published = [
      pub.publishAsync('slow/1', '1', { qos: 1 }).then(() => acks.push('slow/1')),
      pub.publishAsync('fast/2', '2', { qos: 1 }).then(() => acks.push('fast/2')),
      pub.publishAsync('fast/3', '3', { qos: 0 }),
      pub.publishAsync('async/4', '4', { qos: 1 }).then(() => acks.push('async/4')),
    ]
    const held = await slow.next('slow/1')
    await waitFor(() => counter('packets.publish.received') - received === 4, 'the four PUBLISH packets at the broker')
    // All four arrived; the three behind the held one wait for it.
    expect(got).toEqual([])
    expect(acks).toEqual([])
    held.answer('allow')
    await Promise.all(published)
    await waitFor(() => got.length === 4, 'four deliveries')
    expect(got.map((m) => m.topic)).toEqual(['slow/1', 'fast/2', 'fast/3', 'async/4'])
    expect(acks).toEqual(['slow/1', 'fast/2', 'async/4'])
  })

  it('gives the same reason codes when the authorizer answers later: 0x87 for MQTT 5, a plain PUBACK and SUBACK 0x80 for MQTT 3.1.1', async () => {
    authorizer((_info, _action, topic) => later(topic.startsWith('deny/') ? 'deny' : 'allow'))
    const watcher = await suite.t.connect({ clientId: 'codes-watch' })
    await watcher.subscribeAsync('#', { qos: 1 })
    const got = collect(watcher)

    const v5 = await suite.t.connect({ clientId: 'codes-v5', protocolVersion: 5 })
    expect(await subackCodes(v5, ['deny/t', 'ok/t'], { qos: 1 })).toEqual([0x87, 1])
    await expect(v5.publishAsync('deny/t', 'no', { qos: 1 })).rejects.toThrow(/Not authorized/)
    await expect(v5.publishAsync('deny/t', 'no', { qos: 2 })).rejects.toThrow(/Not authorized/)

    const v4 = await suite.t.connect({ clientId: 'codes-v4' })
    expect(await subackCodes(v4, ['deny/t', 'ok/t'], { qos: 1 })).toEqual([0x80, 1])
    await v4.publishAsync('deny/t', 'no', { qos: 1 })
    await v4.publishAsync('deny/t', 'no', { qos: 2 })
    await v4.publishAsync('ok/t', 'yes', { qos: 1 })
    // The allowed message came after the refused ones from the same client: none of them went out.
    await waitFor(() => got.length === 1, 'the allowed message')
    expect(got.map((m) => m.topic)).toEqual(['ok/t'])
  })

  it('denies when an authorization source fails, at once or later (0x87; 0x80 in an MQTT 3.1.1 SUBACK)', async () => {
    authorizer((_info, _action, topic) => {
      if (topic === 'fails/now') throw new Error('authorization backend down')
      if (topic === 'fails/later') return Promise.reject(new Error('authorization backend down'))
      return undefined
    })
    const v5 = await suite.t.connect({ clientId: 'fail-v5', protocolVersion: 5 })
    expect(await subackCodes(v5, ['fails/now', 'fails/later', 'fine'], { qos: 0 })).toEqual([0x87, 0x87, 0])
    await expect(v5.publishAsync('fails/now', 'x', { qos: 1 })).rejects.toThrow(/Not authorized/)
    await expect(v5.publishAsync('fails/later', 'x', { qos: 1 })).rejects.toThrow(/Not authorized/)
    const v4 = await suite.t.connect({ clientId: 'fail-v4' })
    expect(await subackCodes(v4, ['fails/now', 'fails/later'], { qos: 0 })).toEqual([0x80, 0x80])
  })

  it('handles what a client sent before it disconnected first: the waiting message goes out, then the DISCONNECT drops the will', async () => {
    const slow = holdSlowPublishes()
    const reasons: string[] = []
    removals.push(broker().hooks.add('client.disconnected', (info, reason) => info.clientid === 'bye-pub' && reasons.push(reason)))
    const got = await watch('bye-sub', ['slow/#', 'will/#'])
    const pub = await suite.t.connect({ clientId: 'bye-pub', will: { topic: 'will/bye', payload: Buffer.from('gone'), qos: 0, retain: false } })
    pub.publish('slow/bye', 'last words', { qos: 0 })
    const held = await slow.next('slow/bye')
    const disconnects = counter('packets.disconnect.received')
    await pub.endAsync()
    await waitFor(() => counter('packets.disconnect.received') > disconnects, 'the DISCONNECT at the broker')
    held.answer('allow')
    await waitFor(() => reasons.length === 1, 'the client to be gone')
    expect(reasons).toEqual(['normal'])
    await marker(got)
    expect(got.map((m) => m.topic)).toEqual(['slow/bye', 'marker'])
  })

  it('publishes the waiting message and then the will when the socket drops without DISCONNECT', async () => {
    const slow = holdSlowPublishes()
    const got = await watch('drop-sub', ['slow/#', 'will/#'])
    const pub = await suite.t.connect({ clientId: 'drop-pub', will: { topic: 'will/drop', payload: Buffer.from('gone'), qos: 0, retain: false } })
    pub.publish('slow/drop', 'before the drop', { qos: 0 })
    const held = await slow.next('slow/drop')
    // The broker's end of the socket: the answer comes only once the broker has seen it close.
    const serverSide = (broker().getSession('drop-pub')!.channel as Connection).stream
    const seenClosed = new Promise((resolve) => serverSide.once('close', resolve))
    pub.stream.destroy()
    await seenClosed
    held.answer('allow')
    await waitFor(() => got.length === 2, 'the message and the will')
    expect(got.map((m) => m.topic)).toEqual(['slow/drop', 'will/drop'])
  })

  it('still publishes a message whose client was kicked while it waited, as EMQX handles the packet before the kick', async () => {
    const slow = holdSlowPublishes()
    const got = await watch('kick-sub', ['slow/#'])
    const pub = await suite.t.connect({ clientId: 'kick-pub', protocolVersion: 5, reconnectPeriod: 0 })
    pub.on('error', () => {})
    void pub.publishAsync('slow/kick', 'x', { qos: 1 }).catch(() => {})
    const held = await slow.next('slow/kick')
    expect((await suite.api.delete('/clients/kick-pub')).status).toBe(204)
    held.answer('allow')
    await marker(got)
    expect(got.map((m) => m.topic)).toEqual(['slow/kick', 'marker'])
  })

  it('holds the packets sent right behind CONNECT until an authenticator answers later, then handles them in order', async () => {
    const slow = gate<AuthDecision | undefined>()
    authenticator((info) => (info.clientid.startsWith('late-') ? slow.hold(info.clientid) : undefined))
    const received = counter('packets.publish.received')
    const raw = rawClient(suite.t.server.mqttPort, 4)
    raw.send(connectPacket({ clientId: 'late-allowed' }))
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'late/#', qos: 0 }] })
    raw.send({ cmd: 'publish', topic: 'late/self', payload: Buffer.from('hi'), qos: 0, retain: false, dup: false })
    const held = await slow.next('late-allowed')
    await waitFor(() => counter('packets.publish.received') > received, 'the PUBLISH behind the CONNECT at the broker')
    expect(raw.packets).toEqual([])
    held.answer(undefined)
    await raw.next('publish')
    expect(raw.packets.map((p) => p.cmd)).toEqual(['connack', 'suback', 'publish'])

    const refused = rawClient(suite.t.server.mqttPort, 5)
    refused.send(connectPacket({ protocolVersion: 5, clientId: 'late-refused' }))
    refused.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'late/#', qos: 0 }] })
    const refusal = await slow.next('late-refused')
    refusal.answer({ result: 'deny', reason: 'bad_username_or_password' })
    expect(await refused.next('connack')).toMatchObject({ reasonCode: 0x86 })
    await refused.closed
    expect(refused.packets.map((p) => p.cmd)).toEqual(['connack'])
  })

  it('applies no_match and deny_action: nothing matched can mean deny, and a refused PUBLISH can disconnect the client', async () => {
    broker().access.settings = { noMatch: 'deny', denyAction: 'ignore' }
    const v5 = await suite.t.connect({ clientId: 'nomatch-v5', protocolVersion: 5 })
    expect(await subackCodes(v5, ['anything'], { qos: 0 })).toEqual([0x87])
    await expect(v5.publishAsync('anything', 'x', { qos: 1 })).rejects.toThrow(/Not authorized/)

    broker().access.settings = { noMatch: 'allow', denyAction: 'disconnect' }
    authorizer((_info, action, topic) => (action === 'publish' && topic === 'forbidden' ? later('deny') : undefined))
    const reasons: number[] = []
    const kicked = await suite.t.connect({ clientId: 'deny-action', protocolVersion: 5, reconnectPeriod: 0 })
    kicked.on('disconnect', (packet) => reasons.push(packet.reasonCode ?? -1))
    kicked.on('error', () => {})
    kicked.publish('forbidden', 'x', { qos: 0 })
    await waitFor(() => reasons.length === 1, 'the DISCONNECT')
    expect(reasons).toEqual([0x87])
  })

  it('authorizes a delayed publish on the topic it will be published to, and refuses a $delayed topic without one', async () => {
    const asked: string[] = []
    authorizer((_info, action, topic) => {
      if (action === 'publish') asked.push(topic)
      return undefined
    })
    const v5 = await suite.t.connect({ clientId: 'delayed-authz', protocolVersion: 5 })
    await v5.publishAsync('$delayed/30/real/topic', 'later', { qos: 1 })
    expect(asked).toEqual(['real/topic'])
    await expect(v5.publishAsync('$delayed/30', 'no topic', { qos: 1 })).rejects.toThrow(/Not authorized/)
    expect(asked).toEqual(['real/topic'])
    await suite.api.delete('/mqtt/delayed/messages/real%2Ftopic')
  })

  it('caches answers per client when the cache is on: asked once, excluded topics always, listed and cleared through the REST API, forgotten at disconnect', async () => {
    broker().access.cache.settings = { enable: true, maxSize: 32, ttlMs: 60_000, excludes: ['live/#'] }
    const asked: string[] = []
    authorizer((_info, _action, topic) => {
      asked.push(topic)
      return later('allow')
    })
    const sources: string[] = []
    removals.push(broker().hooks.add('client.check_authz_complete', (_info, _action, topic, _result, source) => sources.push(`${topic} ${source}`)))
    const client: MqttClient = await suite.t.connect({ clientId: 'cached' })
    for (let i = 0; i < 3; i++) await client.publishAsync('stable', 'x', { qos: 1 })
    for (let i = 0; i < 2; i++) await client.publishAsync('live/now', 'x', { qos: 1 })
    expect(asked).toEqual(['stable', 'live/now', 'live/now'])
    expect(sources).toEqual(['stable unknown', 'stable cache', 'stable cache', 'live/now unknown', 'live/now unknown'])
    const listed = await suite.api.get('/clients/cached/authorization/cache')
    expect(listed.body).toEqual([{ access: 'publish', topic: 'stable', result: 'allow', updated_time: expect.any(Number) }])
    expect((await suite.api.delete('/clients/cached/authorization/cache')).status).toBe(204)
    expect((await suite.api.get('/clients/cached/authorization/cache')).body).toEqual([])
    await client.publishAsync('stable', 'x', { qos: 1 })
    expect(asked).toEqual(['stable', 'live/now', 'live/now', 'stable'])
    await client.endAsync()
    await waitFor(() => broker().access.cache.list('cached').length === 0, 'the cache to go with the connection')
  })
})

describe('the authorization cache', () => {
  it('keeps at most max_size answers per client, evicting the oldest, each for its ttl', async () => {
    const { AuthzCache } = await import('../server/broker/authz-cache.ts')
    const cache = new AuthzCache()
    cache.settings = { enable: true, maxSize: 2, ttlMs: 1000, excludes: [] }
    cache.put('c', 'publish', 'a', 'allow', 0)
    cache.put('c', 'publish', 'b', 'deny', 10)
    cache.put('c', 'subscribe', 'a', 'allow', 20)
    expect(cache.list('c').map((entry) => `${entry.action} ${entry.topic}`)).toEqual(['publish b', 'subscribe a'])
    expect(cache.get('c', 'publish', 'b', 500)).toBe('deny')
    expect(cache.get('c', 'publish', 'b', 1010)).toBeUndefined()
    expect(cache.get('other', 'subscribe', 'a', 30)).toBeUndefined()
  })
})
