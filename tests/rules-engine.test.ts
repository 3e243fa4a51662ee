// The rule engine on the real broker with real mqtt.js clients: the "done when" (a hot reading
// republished to alerts/${t}, a cold one not), FOREACH emitting one message per element, the metrics
// EMQX counts, disabled rules, direct dispatch, recursion, MQTT 5 properties, missing actions and the
// engine settings.
import type { MqttClient } from 'mqtt'
import { describe, expect, it, vi } from 'vitest'
import { collect, serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()

async function clear(): Promise<void> {
  const page = await suite.api.get('/rules?limit=1000')
  for (const rule of page.body.data) await suite.api.delete(`/rules/${rule.id}`)
}

async function metrics(id: string): Promise<Record<string, number>> {
  return (await suite.api.get(`/rules/${id}/metrics`)).body.metrics
}

async function subscriber(filter: string, options = {}): Promise<{ client: MqttClient; messages: ReturnType<typeof collect> }> {
  const client = await suite.t.connect(options)
  const messages = collect(client)
  await client.subscribeAsync(filter, { qos: 1 })
  return { client, messages }
}

/** Publishes, then a marker the rules ignore, so everything the first publish caused has been delivered. */
async function settle(messages: unknown[], expected: number): Promise<void> {
  await waitFor(() => messages.length >= expected, `${expected} messages`)
  await new Promise((resolve) => setTimeout(resolve, 50))
}

describe('rule engine', () => {
  it('republishes a hot reading to alerts/${t} and nothing for a cold one; metrics count both', async () => {
    await clear()
    const created = await suite.api.post('/rules', {
      id: 'hot',
      sql: 'SELECT payload.temp AS t FROM "sensors/#" WHERE t > 30',
      actions: [{ function: 'republish', args: { topic: 'alerts/${t}', payload: '{"t": ${t}}', qos: 1 } }],
    })
    expect(created.status).toBe(201)
    const { messages } = await subscriber('alerts/#')
    const publisher = await suite.t.connect()
    await publisher.publishAsync('sensors/room1', JSON.stringify({ temp: 35 }), { qos: 1 })
    await publisher.publishAsync('sensors/room2', JSON.stringify({ temp: 20 }), { qos: 1 })
    await publisher.publishAsync('other/room', JSON.stringify({ temp: 99 }), { qos: 1 })
    await settle(messages, 1)
    expect(messages).toEqual([{ topic: 'alerts/35', payload: '{"t": 35}', qos: 1, retain: false }])
    expect(await metrics('hot')).toEqual({
      matched: 2,
      passed: 1,
      failed: 1,
      'failed.exception': 0,
      'failed.no_result': 1,
      'actions.total': 1,
      'actions.success': 1,
      'actions.failed': 0,
      'actions.failed.out_of_service': 0,
      'actions.failed.unknown': 0,
      'actions.discarded': 0,
      'matched.rate': 0,
      'matched.rate.max': 0,
      'matched.rate.last5m': 0,
    })
    const response = (await suite.api.get('/rules/hot/metrics')).body
    expect(response.id).toBe('hot')
    expect(response.node_metrics).toEqual([{ node: 'emqx@127.0.0.1', metrics: response.metrics }])
    expect((await suite.api.request('PUT', '/rules/hot/metrics/reset')).status).toBe(204)
    expect((await metrics('hot')).matched).toBe(0)
    expect((await suite.api.request('PUT', '/rules/none/metrics/reset')).status).toBe(404)
    expect((await suite.api.get('/rules/none/metrics')).status).toBe(404)
  })

  it('gives a message_publish rule EMQX\'s columns (SELECT * republished whole with an empty payload template)', async () => {
    await clear()
    await suite.api.post('/rules', { id: 'columns', sql: 'SELECT * FROM "cols/#"', actions: [{ function: 'republish', args: { topic: 'seen/cols', payload: '' } }] })
    const { messages } = await subscriber('seen/#')
    const publisher = await suite.t.connect({ clientId: 'cols-pub', username: 'cols-user', protocolVersion: 5 })
    await publisher.publishAsync('cols/1', '{"a":1}', { qos: 1, retain: false, properties: { userProperties: { k: 'v' }, contentType: 'json' } })
    await settle(messages, 1)
    const seen = JSON.parse(messages[0].payload)
    expect(seen).toMatchObject({
      clientid: 'cols-pub',
      username: 'cols-user',
      topic: 'cols/1',
      qos: 1,
      payload: '{"a":1}',
      flags: { dup: false, retain: false },
      event: 'message.publish',
      node: 'emqx@127.0.0.1',
      client_attrs: {},
      metadata: { rule_id: 'columns' },
      pub_props: { 'Content-Type': 'json', 'User-Property': { k: 'v' }, 'User-Property-Pairs': [{ key: 'k', value: 'v' }] },
    })
    expect(seen.id).toMatch(/^[0-9A-F]{32}$/)
    expect(seen.peername).toMatch(/^127\.0\.0\.1:\d+$/)
    expect(seen.peerhost).toBe('127.0.0.1')
    expect(seen.publish_received_at).toBeLessThanOrEqual(seen.timestamp)
  })

  it('FOREACH republishes one message per element that passes INCASE', async () => {
    await clear()
    await suite.api.post('/rules', {
      id: 'each',
      sql: 'FOREACH payload.readings AS r DO r.v AS v, clientid INCASE r.v > 1 FROM "multi/#"',
      actions: [{ function: 'republish', args: { topic: 'each/${v}', payload: '${clientid}' } }],
    })
    const { messages } = await subscriber('each/#')
    const publisher = await suite.t.connect({ clientId: 'foreach-pub' })
    await publisher.publishAsync('multi/a', JSON.stringify({ readings: [{ v: 1 }, { v: 2 }, { v: 3 }] }), { qos: 1 })
    await settle(messages, 2)
    expect(messages.map((m) => [m.topic, m.payload]).sort()).toEqual([
      ['each/2', 'foreach-pub'],
      ['each/3', 'foreach-pub'],
    ])
    expect(await metrics('each')).toMatchObject({ matched: 1, passed: 1, 'actions.total': 2, 'actions.success': 2 })
  })

  it('a disabled rule does nothing, and enabling it again brings it back', async () => {
    await clear()
    await suite.api.post('/rules', { id: 'off', enable: false, sql: 'SELECT * FROM "d/#"', actions: [{ function: 'republish', args: { topic: 'out/d' } }] })
    const { messages } = await subscriber('out/#')
    const publisher = await suite.t.connect()
    await publisher.publishAsync('d/1', 'x', { qos: 1 })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(messages).toEqual([])
    expect((await metrics('off')).matched).toBe(0)
    await suite.api.request('PUT', '/rules/off', { enable: true })
    await publisher.publishAsync('d/1', 'x', { qos: 1 })
    await settle(messages, 1)
    // SELECT * carries the publisher's payload, QoS and retain flag along.
    expect(messages).toEqual([{ topic: 'out/d', payload: 'x', qos: 1, retain: false }])
  })

  it('counts a SQL that throws as failed.exception and a missing action as discarded, and never breaks the publish', async () => {
    await clear()
    await suite.api.post('/rules', { id: 'throws', sql: 'SELECT payload.x AS x FROM "bad/#"' })
    await suite.api.post('/rules', { id: 'missing', sql: 'SELECT * FROM "bad/#"', actions: ['http:nowhere', { function: 'console' }] })
    const { messages } = await subscriber('bad/#')
    const publisher = await suite.t.connect()
    await publisher.publishAsync('bad/1', 'not json', { qos: 1 })
    await settle(messages, 1)
    expect(messages[0].payload).toBe('not json')
    expect(await metrics('throws')).toMatchObject({ matched: 1, passed: 0, failed: 1, 'failed.exception': 1, 'failed.no_result': 0 })
    expect(await metrics('missing')).toMatchObject({ matched: 1, passed: 1, 'actions.total': 2, 'actions.discarded': 1, 'actions.success': 1, 'actions.failed': 0 })
  })

  it('a message republished with direct dispatch reaches no rule; without it, the next rule runs; a rule does not republish its own output', async () => {
    await clear()
    await suite.api.post('/rules', { id: 'first', sql: 'SELECT * FROM "chain/start"', actions: [{ function: 'republish', args: { topic: 'chain/next', direct_dispatch: '${direct}' } }] })
    await suite.api.post('/rules', { id: 'second', sql: 'SELECT * FROM "chain/next"', actions: [{ function: 'republish', args: { topic: 'chain/end' } }] })
    await suite.api.post('/rules', { id: 'loop', sql: 'SELECT * FROM "loop/#"', actions: [{ function: 'republish', args: { topic: 'loop/again' } }] })
    const { messages } = await subscriber('#')
    const publisher = await suite.t.connect()
    await publisher.publishAsync('chain/start', 'x', { qos: 1 })
    await settle(messages, 3)
    // Rules run in the publish hook, before the message is routed: the republished ones arrive first.
    expect(messages.map((m) => m.topic).sort()).toEqual(['chain/end', 'chain/next', 'chain/start'])
    messages.length = 0
    await suite.api.request('PUT', '/rules/first', { sql: 'SELECT *, true AS direct FROM "chain/start"' })
    await publisher.publishAsync('chain/start', 'x', { qos: 1 })
    await settle(messages, 2)
    expect(messages.map((m) => m.topic).sort()).toEqual(['chain/next', 'chain/start'])
    messages.length = 0
    await publisher.publishAsync('loop/1', 'x', { qos: 1 })
    await settle(messages, 2)
    expect(messages.map((m) => m.topic).sort()).toEqual(['loop/1', 'loop/again'])
    expect((await metrics('loop')).matched).toBe(2)
  })

  it('direct dispatch bypasses every message.publish hook as EMQX does: a retained republish is routed but not stored by the retainer', async () => {
    await clear()
    await suite.api.post('/rules', { id: 'keep', sql: 'SELECT *, payload.direct AS direct FROM "retain/in/#"', actions: [{ function: 'republish', args: { topic: 'retain/out/${direct}', retain: true, direct_dispatch: '${direct}' } }] })
    const { messages } = await subscriber('retain/out/#')
    const publisher = await suite.t.connect()
    await publisher.publishAsync('retain/in/b', JSON.stringify({ direct: true }), { qos: 1 })
    await publisher.publishAsync('retain/in/c', JSON.stringify({ direct: false }), { qos: 1 })
    await settle(messages, 2)
    expect(messages.map((m) => m.topic).sort()).toEqual(['retain/out/false', 'retain/out/true'])
    expect((await suite.api.get('/mqtt/retainer/message/retain%2Fout%2Ftrue')).status).toBe(404)
    expect((await suite.api.get('/mqtt/retainer/message/retain%2Fout%2Ffalse')).status).toBe(200)
  })

  it('republishes MQTT 5 properties from templates and the publisher user properties with ${pub_props.\'User-Property\'}', async () => {
    await clear()
    await suite.api.post('/rules', {
      id: 'props',
      sql: 'SELECT payload.ct AS ct, clientid FROM "props/in"',
      actions: [
        {
          function: 'republish',
          args: {
            topic: 'props/out',
            payload: '${clientid}',
            mqtt_properties: { 'Content-Type': '${ct}', 'Message-Expiry-Interval': '60', 'Payload-Format-Indicator': 'nope' },
            user_properties: "${pub_props.'User-Property'}",
          },
        },
      ],
    })
    const client = await suite.t.connect({ protocolVersion: 5 })
    const received: Array<{ topic: string; properties: unknown }> = []
    client.on('message', (topic, _payload, packet) => received.push({ topic, properties: packet.properties }))
    await client.subscribeAsync('props/out', { qos: 1 })
    const publisher = await suite.t.connect({ protocolVersion: 5, clientId: 'props-pub' })
    await publisher.publishAsync('props/in', JSON.stringify({ ct: 'text/plain' }), { qos: 1, properties: { userProperties: { k: 'v' } } })
    await waitFor(() => received.length === 1, 'the republished message')
    expect(received[0].properties).toMatchObject({ contentType: 'text/plain', messageExpiryInterval: 60, userProperties: { k: 'v' } })
    expect(received[0].properties).not.toHaveProperty('payloadFormatIndicator')
  })

  it('a console output writes the selected data and the environment to standard output, as EMQX does', async () => {
    await clear()
    await suite.api.post('/rules', { id: 'to-console', sql: 'SELECT payload.n AS n FROM "console/#"', actions: [{ function: 'console' }] })
    const written: string[] = []
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
    try {
      const publisher = await suite.t.connect()
      await publisher.publishAsync('console/1', '{"n":7}', { qos: 1 })
      await waitFor(() => written.some((line) => line.startsWith('[rule action] to-console')), 'the console output')
    } finally {
      spy.mockRestore()
    }
    const line = written.find((text) => text.startsWith('[rule action] to-console'))!
    expect(line).toContain('Action Data: #{<<"n">> => 7}')
    expect(line).toContain('topic => <<"console/1">>')
    expect((await metrics('to-console'))['actions.success']).toBe(1)
  })

  it('runs rules on $events/ sources: a client connecting republishes, a disabled rule stops it', async () => {
    await clear()
    await suite.api.post('/rules', {
      id: 'connected',
      sql: 'SELECT clientid, event FROM "$events/client_connected"',
      actions: [{ function: 'republish', args: { topic: 'events/${clientid}', payload: '${event}' } }],
    })
    const { messages } = await subscriber('events/#')
    await suite.t.connect({ clientId: 'evented' })
    await waitFor(() => messages.some((m) => m.topic === 'events/evented'), 'the connected event republished')
    expect(messages.find((m) => m.topic === 'events/evented')?.payload).toBe('client.connected')
    expect(await metrics('connected')).toMatchObject({ passed: 2, 'actions.success': 2 })
    await suite.api.request('PUT', '/rules/connected', { enable: false })
    messages.length = 0
    await suite.t.connect({ clientId: 'quiet' })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(messages).toEqual([])
  })

  it('shows each rule in the Prometheus data integration families', async () => {
    await clear()
    await suite.api.post('/rules', { id: 'scraped', sql: 'SELECT * FROM "p/#" WHERE qos = 1', actions: ['http:none', { function: 'console' }] })
    const publisher = await suite.t.connect()
    await publisher.publishAsync('p/1', 'x', { qos: 1 })
    await publisher.publishAsync('p/1', 'x', { qos: 0 })
    const json = (await suite.t.raw('/prometheus/data_integration', { headers: { accept: 'application/json' } })).body
    expect(json.data_integration_overview).toEqual({ emqx_rules_count: 1, emqx_actions_count: 2, emqx_connectors_count: 0 })
    expect(json.rules).toEqual([
      expect.objectContaining({ id: 'scraped', emqx_rule_enable: 1, emqx_rule_matched: 2, emqx_rule_passed: 1, emqx_rule_failed_no_result: 1, emqx_rule_actions_discarded: 1 }),
    ])
  })

  it('skips the broker\'s $SYS messages while ignore_sys_message is on; /rule_engine answers and keeps its settings', async () => {
    await clear()
    expect((await suite.api.get('/rule_engine')).body).toEqual({ ignore_sys_message: true, jq_function_default_timeout: 10000 })
    await suite.api.post('/rules', { id: 'sys', sql: 'SELECT * FROM "$SYS/#"' })
    const broker = suite.t.server.broker!
    const { createMessage } = await import('../server/broker/message.ts')
    const sys = () => broker.publish(createMessage({ topic: '$SYS/brokers/x', payload: Buffer.from('1'), qos: 0, retain: false, from: '' }))
    sys()
    expect((await metrics('sys')).matched).toBe(0)
    const put = await suite.api.request('PUT', '/rule_engine', { ignore_sys_message: false, jq_function_default_timeout: '12s' })
    expect(put).toEqual({ status: 200, body: { ignore_sys_message: false, jq_function_default_timeout: 12000 } })
    sys()
    expect((await metrics('sys')).matched).toBe(1)
    expect((await suite.api.request('PUT', '/rule_engine', { rules: {} })).status).toBe(400)
    expect((await suite.api.request('PUT', '/rule_engine', { jq_function_default_timeout: 'soon' })).status).toBe(400)
    expect((await suite.api.get('/rule_engine')).body).toEqual({ ignore_sys_message: false, jq_function_default_timeout: 12000 })
    await suite.api.request('PUT', '/rule_engine', { ignore_sys_message: true, jq_function_default_timeout: '10s' })
  })
})
