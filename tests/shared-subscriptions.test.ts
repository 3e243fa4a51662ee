// Shared subscriptions ($share/<group>/<filter> and $queue/<filter>) with real mqtt.js clients: each
// strategy's distinguishing behaviour, the strategy changed live through /configs/mqtt, and
// unacknowledged QoS 1 messages going to another member when a member's session ends.
import type { MqttClient } from 'mqtt'
import { afterAll, describe, expect, it } from 'vitest'
import { connectPacket, destroyRawClients, rawClient, serverPerSuite, subackCodes, waitFor } from './support/server.ts'

type Strategy = 'random' | 'round_robin' | 'round_robin_per_group' | 'sticky' | 'local' | 'hash_topic' | 'hash_clientid'

/** Which member got which payload, in the order they arrived. */
interface Receipt {
  member: string
  topic: string
  payload: string
}

/**
 * A bare-socket MQTT 5 member that subscribes and then never acknowledges anything (mqtt.js stops
 * reading while an acknowledgement is held back, so it cannot play this part).
 */
async function silentMember(port: number, clientId: string, filter: string) {
  const raw = rawClient(port, 5)
  raw.send(connectPacket({ protocolVersion: 5, clientId, keepalive: 0 }))
  await raw.next('connack')
  raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: filter, qos: 1 }] })
  await raw.next('suback')
  return {
    received: () => raw.packets.flatMap((p) => (p.cmd === 'publish' ? [String(p.payload)] : [])),
    /** A normal DISCONNECT: the clean session ends. */
    disconnect: async () => {
      raw.send({ cmd: 'disconnect', reasonCode: 0 })
      await raw.closed
    },
  }
}

describe('shared subscriptions', () => {
  const suite = serverPerSuite(destroyRawClients)
  const setStrategy = async (strategy: Strategy) => {
    const response = await suite.api.request('PUT', '/configs/mqtt', { shared_subscription_strategy: strategy })
    expect(response.status).toBe(200)
    expect(response.body.shared_subscription_strategy).toBe(strategy)
  }
  afterAll(async () => {
    await suite.api.request('PUT', '/configs/mqtt', { shared_subscription_strategy: 'round_robin', shared_subscription: true })
  })

  /** Connects the members, each subscribed to `filter`; every message any of them gets lands in `receipts`. */
  async function members(names: string[], filter: string, receipts: Receipt[], qos: 0 | 1 = 1): Promise<MqttClient[]> {
    const clients: MqttClient[] = []
    for (const name of names) {
      const client = await suite.t.connect({ clientId: name, protocolVersion: 5 })
      client.on('message', (topic, payload) => receipts.push({ member: name, topic, payload: payload.toString() }))
      await client.subscribeAsync(filter, { qos })
      clients.push(client)
    }
    return clients
  }

  /** Publishes one by one (each QoS 1 publish is acknowledged before the next), then waits for all of them. */
  async function publishAll(publisher: MqttClient, messages: Array<[topic: string, payload: string]>, receipts: Receipt[]) {
    const expected = receipts.length + messages.length
    for (const [topic, payload] of messages) await publisher.publishAsync(topic, payload, { qos: 1 })
    await waitFor(() => receipts.length >= expected, `${messages.length} deliveries`)
  }

  const memberOf = (receipts: Receipt[], payload: string) => {
    const got = receipts.filter((r) => r.payload === payload)
    expect(got, `deliveries of ${payload}`).toHaveLength(1)
    return got[0].member
  }
  const numbered = (topic: string, prefix: string, n: number): Array<[string, string]> =>
    Array.from({ length: n }, (_, i) => [topic, `${prefix}${i}`])

  it('gives each message to exactly one member of each group, and every group gets it', async () => {
    await setStrategy('round_robin')
    const g1: Receipt[] = []
    const g2: Receipt[] = []
    await members(['g1-a', 'g1-b'], '$share/g1/each/#', g1)
    await members(['g2-a', 'g2-b', 'g2-c'], '$share/g2/each/+', g2)
    const pub = await suite.t.connect({ clientId: 'each-pub' })
    for (const [topic, payload] of numbered('each/x', 'm', 6)) await pub.publishAsync(topic, payload, { qos: 1 })
    await waitFor(() => g1.length === 6 && g2.length === 6, 'six messages in each group')
    for (let i = 0; i < 6; i++) {
      memberOf(g1, `m${i}`)
      memberOf(g2, `m${i}`)
    }
  })

  it('round_robin: each publisher alternates exactly between the members', async () => {
    await setStrategy('round_robin')
    const receipts: Receipt[] = []
    await members(['rr-a', 'rr-b'], '$share/rr/rr/t', receipts)
    const p1 = await suite.t.connect({ clientId: 'rr-p1' })
    const p2 = await suite.t.connect({ clientId: 'rr-p2' })
    for (let i = 0; i < 6; i++) {
      await p1.publishAsync('rr/t', `p1-${i}`, { qos: 1 })
      await p2.publishAsync('rr/t', `p2-${i}`, { qos: 1 })
    }
    await waitFor(() => receipts.length === 12, 'twelve deliveries')
    for (const p of ['p1', 'p2']) {
      const order = Array.from({ length: 6 }, (_, i) => memberOf(receipts, `${p}-${i}`))
      for (let i = 1; i < 6; i++) expect(order[i], `${p} message ${i}`).not.toBe(order[i - 1])
      expect(order.filter((m) => m === 'rr-a')).toHaveLength(3)
    }
  })

  it('round_robin_per_group: one rotation for the group, whoever publishes', async () => {
    await setStrategy('round_robin_per_group')
    const receipts: Receipt[] = []
    await members(['rpg-a', 'rpg-b', 'rpg-c'], '$share/rpg/rpg/t', receipts)
    const p1 = await suite.t.connect({ clientId: 'rpg-p1' })
    const p2 = await suite.t.connect({ clientId: 'rpg-p2' })
    const sent: string[] = []
    for (let i = 0; i < 9; i++) {
      const [publisher, name] = i % 2 === 0 ? [p1, 'p1'] : [p2, 'p2']
      await publisher.publishAsync('rpg/t', `${name}-${i}`, { qos: 1 })
      sent.push(`${name}-${i}`)
    }
    await waitFor(() => receipts.length === 9, 'nine deliveries')
    const order = sent.map((payload) => memberOf(receipts, payload))
    // Across both publishers the group cycles a, b, c, a, b, c, ... in one fixed order.
    for (let i = 3; i < 9; i++) expect(order[i]).toBe(order[i - 3])
    expect(new Set(order.slice(0, 3)).size).toBe(3)
  })

  it('sticky: keeps sending to one member until it goes away, then sticks to another', async () => {
    await setStrategy('sticky')
    const receipts: Receipt[] = []
    const clients = await members(['st-a', 'st-b', 'st-c'], '$share/st/st/#', receipts)
    const pub = await suite.t.connect({ clientId: 'st-pub' })
    await publishAll(pub, numbered('st/x', 'first', 10), receipts)
    const chosen = new Set(receipts.map((r) => r.member))
    expect(chosen.size).toBe(1)
    const [first] = chosen
    await clients[['st-a', 'st-b', 'st-c'].indexOf(first)].endAsync()
    receipts.length = 0
    await publishAll(pub, numbered('st/y', 'second', 10), receipts)
    const next = new Set(receipts.map((r) => r.member))
    expect(next.size).toBe(1)
    expect(next.has(first)).toBe(false)
  })

  it('a strategy change applies at once to the groups already subscribed', async () => {
    await setStrategy('round_robin')
    const receipts: Receipt[] = []
    await members(['live-a', 'live-b'], '$share/live/live/t', receipts)
    const pub = await suite.t.connect({ clientId: 'live-pub' })
    await publishAll(pub, numbered('live/t', 'rr', 4), receipts)
    expect(new Set(receipts.map((r) => r.member)).size).toBe(2)
    await setStrategy('sticky')
    receipts.length = 0
    await publishAll(pub, numbered('live/t', 'st', 8), receipts)
    expect(new Set(receipts.map((r) => r.member)).size).toBe(1)
  })

  it('hash_clientid: all messages of one publisher go to the same member', async () => {
    await setStrategy('hash_clientid')
    const receipts: Receipt[] = []
    await members(['hc-a', 'hc-b', 'hc-c'], '$share/hc/hc/#', receipts)
    const publishers = ['hc-p1', 'hc-p2', 'hc-p3', 'hc-p4']
    for (const name of publishers) {
      const publisher = await suite.t.connect({ clientId: name })
      // Different topics from one publisher: the publisher decides, not the topic.
      await publishAll(publisher, Array.from({ length: 6 }, (_, i) => [`hc/${i}`, `${name}-${i}`]), receipts)
    }
    for (const name of publishers) {
      const got = new Set(receipts.filter((r) => r.payload.startsWith(`${name}-`)).map((r) => r.member))
      expect(got.size, name).toBe(1)
    }
  })

  it('hash_topic: all messages on one topic go to the same member, whoever publishes', async () => {
    await setStrategy('hash_topic')
    const receipts: Receipt[] = []
    await members(['ht-a', 'ht-b', 'ht-c'], '$share/ht/ht/#', receipts)
    const p1 = await suite.t.connect({ clientId: 'ht-p1' })
    const p2 = await suite.t.connect({ clientId: 'ht-p2' })
    const topics = ['ht/1', 'ht/2', 'ht/3', 'ht/4', 'ht/5']
    for (let round = 0; round < 4; round++) {
      for (const topic of topics) await (round % 2 === 0 ? p1 : p2).publishAsync(topic, `${topic}#${round}`, { qos: 1 })
    }
    await waitFor(() => receipts.length === 20, 'twenty deliveries')
    for (const topic of topics) {
      const got = new Set(receipts.filter((r) => r.topic === topic).map((r) => r.member))
      expect(got.size, topic).toBe(1)
    }
  })

  for (const strategy of ['random', 'local'] as const) {
    it(`${strategy}: one member per message, spread over the members`, async () => {
      await setStrategy(strategy)
      const receipts: Receipt[] = []
      await members([`${strategy}-a`, `${strategy}-b`], `$share/${strategy}/${strategy}/t`, receipts)
      const pub = await suite.t.connect({ clientId: `${strategy}-pub` })
      await publishAll(pub, numbered(`${strategy}/t`, 'r', 40), receipts)
      for (let i = 0; i < 40; i++) memberOf(receipts, `r${i}`)
      // With 40 random picks, both members getting some fails with probability 2^-39.
      expect(new Set(receipts.map((r) => r.member)).size).toBe(2)
    })
  }

  it('$queue/<filter> is one group: each message to exactly one member; listed as subscribed', async () => {
    await setStrategy('round_robin')
    const receipts: Receipt[] = []
    await members(['q-a', 'q-b'], '$queue/jobs/#', receipts)
    const pub = await suite.t.connect({ clientId: 'q-pub' })
    await publishAll(pub, numbered('jobs/1', 'job', 6), receipts)
    for (let i = 0; i < 6; i++) memberOf(receipts, `job${i}`)
    expect(new Set(receipts.map((r) => r.member)).size).toBe(2)
    const listed = await suite.api.get('/subscriptions?clientid=q-a')
    expect(listed.body.data).toEqual([expect.objectContaining({ clientid: 'q-a', topic: '$queue/jobs/#', qos: 1 })])
  })

  it('a plain subscriber and a group on the same filter both get every message', async () => {
    await setStrategy('round_robin')
    const group: Receipt[] = []
    const plain: Receipt[] = []
    await members(['mix-a', 'mix-b'], '$share/mix/mix/t', group)
    await members(['mix-plain'], 'mix/t', plain)
    const pub = await suite.t.connect({ clientId: 'mix-pub' })
    await publishAll(pub, numbered('mix/t', 'x', 4), plain)
    await waitFor(() => group.length === 4, 'the group to get four')
    expect(plain.map((r) => r.payload)).toEqual(['x0', 'x1', 'x2', 'x3'])
  })

  it('redispatches QoS 1 messages a member never acknowledged to another member when it goes away', async () => {
    await setStrategy('sticky')
    // A member that receives but never sends PUBACK; alone in the group at first, sticky picks it.
    const silent = await silentMember(suite.t.server.mqttPort, 'rd-silent', '$share/rd/rd/t')
    const pub = await suite.t.connect({ clientId: 'rd-pub' })
    await pub.publishAsync('rd/t', 'u1', { qos: 1 })
    const receipts: Receipt[] = []
    await members(['rd-other'], '$share/rd/rd/t', receipts)
    for (const payload of ['u2', 'u3']) await pub.publishAsync('rd/t', payload, { qos: 1 })
    await waitFor(() => silent.received().length === 3, 'the silent member to get three')
    expect(receipts).toEqual([])
    const before = (await suite.api.get('/clients/rd-silent')).body
    expect(before.inflight_cnt).toBe(3)

    await silent.disconnect()
    await waitFor(() => receipts.length === 3, 'the other member to get the three')
    expect(receipts.map((r) => r.payload).sort()).toEqual(['u1', 'u2', 'u3'])
    // Not twice: the group went on with the member still there.
    await pub.publishAsync('rd/t', 'after', { qos: 1 })
    await waitFor(() => receipts.length === 4, 'the next message')
    expect(receipts[3]).toMatchObject({ member: 'rd-other', payload: 'after' })
  })

  it('redispatches the messages still queued behind a full inflight window too', async () => {
    await setStrategy('sticky')
    expect((await suite.api.request('PUT', '/configs/mqtt', { max_inflight: 1 })).status).toBe(200)
    try {
      const silent = await silentMember(suite.t.server.mqttPort, 'rdq-silent', '$share/rdq/rdq/t')
      const pub = await suite.t.connect({ clientId: 'rdq-pub' })
      await pub.publishAsync('rdq/t', 'v1', { qos: 1 })
      const receipts: Receipt[] = []
      await members(['rdq-other'], '$share/rdq/rdq/t', receipts)
      for (const payload of ['v2', 'v3']) await pub.publishAsync('rdq/t', payload, { qos: 1 })
      await waitFor(() => silent.received().length === 1, 'one in flight')
      expect(await suite.api.get('/clients/rdq-silent')).toMatchObject({ body: { inflight_cnt: 1, mqueue_len: 2 } })
      await silent.disconnect()
      await waitFor(() => receipts.length === 3, 'the other member to get all three')
      expect(receipts.map((r) => r.payload).sort()).toEqual(['v1', 'v2', 'v3'])
    } finally {
      await suite.api.request('PUT', '/configs/mqtt', { max_inflight: 32 })
    }
  })

  it('drops (and counts) unacknowledged shared messages when the group has nobody left', async () => {
    await setStrategy('round_robin')
    const metric = async () => (await suite.api.get('/metrics?aggregate=true')).body['messages.dropped'] as number
    const silent = await silentMember(suite.t.server.mqttPort, 'rd-alone', '$share/alone/alone/t')
    const pub = await suite.t.connect({ clientId: 'alone-pub' })
    await pub.publishAsync('alone/t', 'lost', { qos: 1 })
    await waitFor(() => silent.received().length === 1, 'the delivery')
    const before = await metric()
    await silent.disconnect()
    await waitFor(async () => (await metric()) === before + 1, 'messages.dropped to count the message')
  })

  it('shared_subscription=false refuses $share subscriptions with 0x9E, live', async () => {
    expect((await suite.api.request('PUT', '/configs/mqtt', { shared_subscription: false })).status).toBe(200)
    try {
      const client = await suite.t.connect({ clientId: 'no-share', protocolVersion: 5 })
      expect(await subackCodes(client, ['$share/g/t', '$queue/t', 'plain/t'])).toEqual([0x9e, 0x9e, 0])
    } finally {
      await suite.api.request('PUT', '/configs/mqtt', { shared_subscription: true })
    }
  })

  it('refuses an unknown strategy with 400 and keeps the current one', async () => {
    await setStrategy('hash_topic')
    const bad = await suite.api.request('PUT', '/configs/mqtt', { shared_subscription_strategy: 'lottery' })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.any(String) })
    expect((await suite.api.get('/configs/mqtt')).body.shared_subscription_strategy).toBe('hash_topic')
  })
})
