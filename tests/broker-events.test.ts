// The hook points the rule engine's event sources read ($events/client_connack,
// client_check_authn_complete, client_check_authz_complete, message_delivered, message_acked,
// message_dropped, delivery_dropped): each fires, with the fields those events need.
import { afterEach, describe, expect, it } from 'vitest'
import type { HookName, HookPoints } from '../server/broker/hooks.ts'
import { collect, connectPacket, destroyRawClients, rawClient, serverPerSuite, waitFor } from './support/server.ts'

describe('broker events for the rule engine', () => {
  const suite = serverPerSuite(destroyRawClients)
  const broker = () => suite.t.server.broker!
  const removals: Array<() => void> = []
  afterEach(() => {
    for (const remove of removals.splice(0)) remove()
  })
  /** Every call of a hook point from now on, with its arguments. */
  function record<K extends HookName>(name: K): Array<Parameters<HookPoints[K]>> {
    const calls: Array<Parameters<HookPoints[K]>> = []
    const callback = ((...args: Parameters<HookPoints[K]>) => {
      calls.push(args)
    }) as HookPoints[K]
    removals.push(broker().hooks.add(name, callback))
    return calls
  }

  it('client.connack: the reason name and the connection as EMQX shows it, for an accepted and a refused CONNECT', async () => {
    const connacks = record('client.connack')
    await suite.t.connect({ clientId: 'ev-connack', username: 'ev-user', protocolVersion: 5, keepalive: 30, properties: { sessionExpiryInterval: 120 } })
    await waitFor(() => connacks.length === 1, 'the CONNACK event')
    const [conninfo, reason] = connacks[0]
    expect(reason).toBe('success')
    expect(conninfo).toMatchObject({
      clientid: 'ev-connack',
      username: 'ev-user',
      peerhost: '127.0.0.1',
      sockport: suite.t.server.mqttPort,
      protoName: 'MQTT',
      protoVer: 5,
      keepalive: 30,
      cleanStart: true,
      expiryInterval: 120,
      connProps: { sessionExpiryInterval: 120 },
      listener: 'tcp:default',
    })
    expect(conninfo.connectedAt).toBeGreaterThan(0)
    // Its session would outlive the connection by two minutes.
    await suite.api.delete('/clients/ev-connack')

    removals.push(broker().hooks.add('client.authenticate', (info) => (info.clientid === 'ev-refused' ? { result: 'deny', reason: 'not_authorized' } : undefined)))
    const raw = rawClient(suite.t.server.mqttPort, 4)
    raw.send(connectPacket({ clientId: 'ev-refused' }))
    expect(await raw.next('connack')).toMatchObject({ returnCode: 5 })
    expect(connacks[1][1]).toBe('not_authorized')
    expect(connacks[1][0]).toMatchObject({ clientid: 'ev-refused', protoName: 'MQTT', protoVer: 4 })
  })

  it('client.check_authn_complete: anonymous, a superuser, and a refusal with its reason', async () => {
    const outcomes = record('client.check_authn_complete')
    removals.push(
      broker().hooks.add('client.authenticate', (info) =>
        info.clientid === 'ev-super' ? { result: 'allow', isSuperuser: true } : info.clientid === 'ev-bad' ? { result: 'deny', reason: 'bad_username_or_password' } : undefined,
      ),
    )
    await suite.t.connect({ clientId: 'ev-anon' })
    await suite.t.connect({ clientId: 'ev-super' })
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'ev-bad', username: 'u', password: Buffer.from('wrong') }))
    await raw.next('connack')
    expect(outcomes.map(([info, outcome]) => ({ clientid: info.clientid, ...outcome }))).toEqual([
      { clientid: 'ev-anon', reasonCode: 'success', isSuperuser: false, isAnonymous: true },
      { clientid: 'ev-super', reasonCode: 'success', isSuperuser: true, isAnonymous: false },
      { clientid: 'ev-bad', reasonCode: 'bad_username_or_password', isSuperuser: false, isAnonymous: false },
    ])
  })

  it('client.check_authz_complete: action, topic, result and where the answer came from', async () => {
    const checks = record('client.check_authz_complete')
    removals.push(
      broker().hooks.add('client.authorize', (_info, _action, topic) =>
        topic === 'acl/file' ? { result: 'deny', source: 'file' } : topic === 'acl/plain' ? 'allow' : undefined,
      ),
    )
    removals.push(broker().hooks.add('client.authenticate', (info) => (info.clientid === 'ev-authz-super' ? { result: 'allow', isSuperuser: true } : undefined)))
    const client = await suite.t.connect({ clientId: 'ev-authz', protocolVersion: 5 })
    await client.subscribeAsync('acl/file').catch(() => {})
    await client.publishAsync('acl/plain', 'x', { qos: 1 })
    await client.publishAsync('acl/none', 'x', { qos: 1 })
    const superuser = await suite.t.connect({ clientId: 'ev-authz-super' })
    await superuser.publishAsync('acl/file', 'x', { qos: 1 })
    expect(checks.map(([info, action, topic, result, source]) => [info.clientid, action, topic, result, source])).toEqual([
      ['ev-authz', 'subscribe', 'acl/file', 'deny', 'file'],
      ['ev-authz', 'publish', 'acl/plain', 'allow', 'unknown'],
      ['ev-authz', 'publish', 'acl/none', 'allow', 'default'],
      ['ev-authz-super', 'publish', 'acl/file', 'allow', 'superuser'],
    ])
  })

  it('message.delivered and message.acked: subscriber, publisher, the QoS and flags the message went out with; acked at PUBACK and PUBREC', async () => {
    const delivered = record('message.delivered')
    const acked = record('message.acked')
    const sub = await suite.t.connect({ clientId: 'ev-sub', protocolVersion: 5 })
    await sub.subscribeAsync('ev/#', { qos: 1 })
    await sub.subscribeAsync('ev2/#', { qos: 2 })
    const got = collect(sub)
    const pub = await suite.t.connect({ clientId: 'ev-pub', username: 'ev-pub-user' })
    await pub.publishAsync('ev/one', 'a', { qos: 2 })
    await pub.publishAsync('ev2/two', 'b', { qos: 2 })
    await waitFor(() => got.length === 2 && acked.length === 2, 'two deliveries acknowledged')
    expect(delivered.map(([info, message, qos, retain]) => ({ to: info.clientid, from: message.from, username: message.fromUsername, peerhost: message.peerhost, topic: message.topic, qos, retain }))).toEqual([
      { to: 'ev-sub', from: 'ev-pub', username: 'ev-pub-user', peerhost: '127.0.0.1', topic: 'ev/one', qos: 1, retain: false },
      { to: 'ev-sub', from: 'ev-pub', username: 'ev-pub-user', peerhost: '127.0.0.1', topic: 'ev2/two', qos: 2, retain: false },
    ])
    expect(acked.map(([info, message, qos]) => ({ by: info.clientid, topic: message.topic, qos }))).toEqual([
      { by: 'ev-sub', topic: 'ev/one', qos: 1 },
      { by: 'ev-sub', topic: 'ev2/two', qos: 2 },
    ])
  })

  it('message.dropped and delivery.dropped: the message, who it was for, and why', async () => {
    // The broker's own $SYS messages with nobody listening are dropped too: left out here.
    const dropped = record('message.dropped')
    const mine = () => dropped.filter(([message]) => !message.topic.startsWith('$SYS/'))
    const deliveryDropped = record('delivery.dropped')
    const pub = await suite.t.connect({ clientId: 'ev-drop-pub' })
    await pub.publishAsync('nobody/listens', 'x', { qos: 1 })
    await waitFor(() => mine().length === 1, 'the dropped message')
    expect(mine()[0][1]).toBe('no_subscribers')
    expect(mine()[0][0]).toMatchObject({ topic: 'nobody/listens', from: 'ev-drop-pub', peerhost: '127.0.0.1' })

    // A subscriber that accepts packets of at most 64 bytes: a larger message is dropped on its way to it.
    const small = await suite.t.connect({ clientId: 'ev-small', protocolVersion: 5, properties: { maximumPacketSize: 64 } })
    await small.subscribeAsync('big/#', { qos: 1 })
    await pub.publishAsync('big/one', Buffer.alloc(200), { qos: 1 })
    await waitFor(() => deliveryDropped.length === 1, 'the dropped delivery')
    const [info, message, reason] = deliveryDropped[0]
    expect({ to: info.clientid, from: message.from, topic: message.topic, reason }).toEqual({ to: 'ev-small', from: 'ev-drop-pub', topic: 'big/one', reason: 'too_large' })
  })
})
