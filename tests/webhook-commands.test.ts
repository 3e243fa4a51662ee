// The webhook commands against the real embedded server: webhook.create makes the HTTP connector,
// action and rule `<name>_WH_D` and a real mqtt.js publish reaches a node:http server started here;
// a failed later part removes what the command made; update, disable, enable, list and delete act
// on all three; bad arguments are refused before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { splitEvents, triggerOf, triggerSql } from '../commands/webhookModel.ts'
import { ApiError } from '../contract/api-error.ts'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'
import { startHttpTarget, type HttpTarget, type ReceivedRequest } from './support/http-target.ts'
import { waitFor } from './support/server.ts'

const suite = consoleSuite()
const run = (id: string, raw: Record<string, unknown> = {}) => runCommand(suite.api, id, raw)

let target: HttpTarget
let base = ''
let received: ReceivedRequest[] = []

beforeAll(async () => {
  target = await startHttpTarget()
  base = target.url
  received = target.requests
})
afterAll(() => target.close())

const rejected = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Error)
  return error as Error
}
const parts = async () => ({
  connectors: (await suite.api.connectors.list()).map((c) => c.name),
  actions: (await suite.api.connectors.actions.list()).map((a) => a.name),
  rules: (await suite.api.rules.list({ limit: 100 })).data.map((r) => r.id),
})

describe('the trigger as rule SQL', () => {
  it('quotes topics and event sources into FROM and reads them back from the rule', () => {
    expect(triggerSql({ topics: ['t/#', 'a/+'], events: ['$events/client_connected'] })).toBe('SELECT * FROM "t/#", "a/+", "$events/client_connected"')
    // Message events beside topics follow the topics; other events pass by their event name first.
    expect(triggerSql({ topics: ['t/#'], events: ['$events/message_delivered'] })).toBe('SELECT * FROM "t/#", "$events/message_delivered" WHERE topic =~ \'t/#\'')
    expect(triggerSql({ topics: ['t/#', 'a/+'], events: ['$events/message_acked', '$events/sys/alarm_activated'] })).toBe(
      'SELECT * FROM "t/#", "a/+", "$events/message_acked", "$events/sys/alarm_activated" WHERE event = \'alarm.activated\' or topic =~ \'t/#\' or topic =~ \'a/+\'',
    )
    expect(triggerSql({ topics: [], events: ['$events/message_delivered'] })).toBe('SELECT * FROM "$events/message_delivered"')
    expect(triggerOf(['t/#', '$events/client_connected', '$bridges/mqtt:in'])).toEqual({ topics: ['t/#'], events: ['$events/client_connected', '$bridges/mqtt:in'] })
    expect(splitEvents('client_connected, alarm_activated $events/message_delivered')).toEqual(['$events/client_connected', '$events/sys/alarm_activated', '$events/message_delivered'])
  })
})

describe('webhook commands', () => {
  it('webhook.create makes connector, action and rule <name>_WH_D; a real publish reaches the HTTP server', async () => {
    const created = await run('webhook.create', {
      name: 'orders',
      url: `${base}/hook/\${clientid}`,
      topics: 'orders/#',
      events: 'client_connected',
      method: 'put',
      headers: 'x-token=abc',
      body: '{"topic": "${topic}", "payload": ${payload}}',
      description: 'to the order service',
      connector: '{"pool_size": 2}',
      action: '{"parameters": {"max_retries": 0}}',
    })
    expect(created).toMatchObject({ name: 'orders', id: 'orders_WH_D', enable: true, method: 'put', trigger: { topics: ['orders/#'], events: ['$events/client_connected'] } })
    const connector = await suite.api.connectors.get('http:orders_WH_D')
    expect(connector).toMatchObject({ url: `${base}/hook/\${clientid}`, pool_size: 2, headers: { 'x-token': 'abc' } })
    const action = await suite.api.connectors.actions.get('http:orders_WH_D')
    expect(action).toMatchObject({ connector: 'orders_WH_D', parameters: { method: 'put', headers: { 'x-token': 'abc' }, max_retries: 0 } })
    const rule = await suite.api.rules.get('orders_WH_D')
    expect(rule).toMatchObject({ sql: 'SELECT * FROM "orders/#", "$events/client_connected"', actions: ['http:orders_WH_D'], description: 'to the order service' })

    await waitFor(async () => (await suite.api.connectors.get('http:orders_WH_D')).status === 'connected', 'connector connected')
    received.length = 0
    const client = await suite.ts.connect({ clientId: 'shop-1' })
    await client.publishAsync('orders/42', '{"qty": 3}', { qos: 1 })
    await waitFor(() => received.some((r) => r.body.includes('orders/42')), 'the publish arrives')
    const request = received.find((r) => r.body.includes('orders/42'))
    expect(request).toMatchObject({ method: 'PUT', path: '/hook/shop-1', body: '{"topic": "orders/42", "payload": {"qty": 3}}' })
    expect(request?.headers['x-token']).toBe('abc')
    // The client_connected event fired it too.
    await waitFor(() => received.some((r) => r.path === '/hook/shop-1' && !r.body.includes('orders/42')), 'the connected event arrives')

    await waitFor(async () => (await suite.api.connectors.actions.metrics('http:orders_WH_D')).metrics.success >= 2, 'success counted')
  })

  it('webhooks.list joins the three parts', async () => {
    const list = (await run('webhooks.list')) as Array<Record<string, unknown>>
    expect(list).toEqual([
      { name: 'orders', enable: true, status: 'connected', url: `${base}/hook/\${clientid}`, method: 'put', topics: ['orders/#'], events: ['$events/client_connected'] },
    ])
  })

  it('webhook.update changes the URL, method and topics, removes the body (null in the JSON) and keeps the rest', async () => {
    await run('webhook.update', { name: 'orders', url: `${base}/v2`, method: 'post', topics: 'orders/new', action: '{"parameters": {"body": null}}' })
    const action = await suite.api.connectors.actions.get('http:orders_WH_D')
    expect(action.parameters).toMatchObject({ method: 'post', headers: { 'x-token': 'abc' }, max_retries: 0 })
    expect(action.parameters.body, JSON.stringify(action.parameters)).toBeUndefined()
    expect(await suite.api.connectors.get('http:orders_WH_D')).toMatchObject({ url: `${base}/v2`, pool_size: 2 })
    expect(await suite.api.rules.get('orders_WH_D')).toMatchObject({ sql: 'SELECT * FROM "orders/new", "$events/client_connected"', description: 'to the order service' })

    received.length = 0
    const client = await suite.ts.connect({ clientId: 'shop-2' })
    await client.publishAsync('orders/new', 'x1', { qos: 1 })
    await waitFor(() => received.some((r) => r.body.includes('"x1"')), 'the publish arrives at the new URL')
    const request = received.find((r) => r.body.includes('"x1"'))
    expect(request).toMatchObject({ method: 'POST', path: '/v2' })
    // No body template: the whole selected row as JSON.
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ topic: 'orders/new', payload: 'x1', clientid: 'shop-2' })
  })

  it("an update with the same trigger keeps the rule's SQL as written (a WHERE added by hand stays)", async () => {
    const sql = 'SELECT * FROM "orders/new", "$events/client_connected" WHERE clientid =~ \'shop-%\''
    await suite.api.rules.update('orders_WH_D', { sql })
    await run('webhook.update', { name: 'orders', topics: 'orders/new', events: 'client_connected', description: 'kept' })
    expect(await suite.api.rules.get('orders_WH_D')).toMatchObject({ sql, description: 'kept' })
    await run('webhook.update', { name: 'orders', topics: 'orders/new', events: ' ', description: 'to the order service' })
    expect((await suite.api.rules.get('orders_WH_D')).sql).toBe('SELECT * FROM "orders/new"')
    await run('webhook.update', { name: 'orders', events: 'client_connected' })
    expect((await suite.api.rules.get('orders_WH_D')).sql).toBe('SELECT * FROM "orders/new", "$events/client_connected"')
  })

  it('a refused part of an update puts back what was changed before it', async () => {
    const before = await suite.api.connectors.get('http:orders_WH_D')
    await rejected(run('webhook.update', { name: 'orders', url: `${base}/v3`, action: '{"resource_opts": {"query_mode": "later"}}' }))
    expect((await suite.api.connectors.get('http:orders_WH_D')).url).toBe(before.url)
  })

  it('webhook.disable turns off rule, action and connector; webhook.enable turns them back on', async () => {
    await run('webhook.disable', { name: 'orders' })
    expect((await suite.api.rules.get('orders_WH_D')).enable).toBe(false)
    expect((await suite.api.connectors.actions.get('http:orders_WH_D')).enable).toBe(false)
    expect((await suite.api.connectors.get('http:orders_WH_D')).enable).toBe(false)
    expect(((await run('webhooks.list')) as Array<{ enable: boolean }>)[0].enable).toBe(false)

    received.length = 0
    const client = await suite.ts.connect({ clientId: 'shop-3' })
    await client.publishAsync('orders/new', 'while-off', { qos: 1 })

    await run('webhook.enable', { name: 'orders' })
    expect((await suite.api.rules.get('orders_WH_D')).enable).toBe(true)
    expect((await suite.api.connectors.actions.get('http:orders_WH_D')).enable).toBe(true)
    expect((await suite.api.connectors.get('http:orders_WH_D')).enable).toBe(true)
    await waitFor(async () => (await suite.api.connectors.get('http:orders_WH_D')).status === 'connected', 'connector connected again')
    await client.publishAsync('orders/new', 'back-on', { qos: 1 })
    await waitFor(() => received.some((r) => r.body.includes('back-on')), 'sent again once enabled')
    expect(received.some((r) => r.body.includes('while-off'))).toBe(false)
  })

  it('message events chosen beside topics fire for those topics only; a client event beside them still fires', async () => {
    await run('webhook.create', { name: 'deliveries', url: `${base}/d`, topics: 'd/#', events: 'message_delivered, client_disconnected' })
    expect((await suite.api.rules.get('deliveries_WH_D')).sql).toBe(
      'SELECT * FROM "d/#", "$events/message_delivered", "$events/client_disconnected" WHERE event = \'client.disconnected\' or topic =~ \'d/#\'',
    )
    await waitFor(async () => (await suite.api.connectors.get('http:deliveries_WH_D')).status === 'connected', 'connector connected')
    received.length = 0
    const subscriber = await suite.ts.connect({ clientId: 'd-sub' })
    await subscriber.subscribeAsync(['d/#', 'x/#'], { qos: 1 })
    const publisher = await suite.ts.connect({ clientId: 'd-pub' })
    await publisher.publishAsync('x/1', 'not-this', { qos: 1 })
    await publisher.publishAsync('d/1', 'this-one', { qos: 1 })
    const bodies = () => received.filter((r) => r.path === '/d').map((r) => JSON.parse(r.body) as { event: string; topic?: string; payload?: string })
    // d/1's publish and its delivery to d-sub; x/1's delivery is not sent.
    await waitFor(() => bodies().filter((b) => b.topic === 'd/1').length === 2, 'the publish and the delivery on d/1')
    await publisher.endAsync()
    await waitFor(() => bodies().some((b) => b.event === 'client.disconnected'), 'the disconnect event')
    expect(bodies().filter((b) => b.topic === 'x/1')).toEqual([])
    expect(bodies().find((b) => b.event === 'message.delivered')).toMatchObject({ topic: 'd/1', payload: 'this-one' })
    await run('webhook.delete', { name: 'deliveries' })
  })

  it('webhook.create removes the connector and action it made when the rule is refused', async () => {
    // A rule with the id exists already: the connector and action are made, the rule is refused.
    await suite.api.rules.create({ id: 'taken_WH_D', sql: 'SELECT * FROM "x"', actions: [] })
    const error = await rejected(run('webhook.create', { name: 'taken', url: base, topics: 't/1' }))
    expect(error).toBeInstanceOf(ApiError)
    const now = await parts()
    expect(now.connectors).not.toContain('taken_WH_D')
    expect(now.actions).not.toContain('taken_WH_D')
    await suite.api.rules.delete('taken_WH_D')
  })

  it('webhook.create removes the connector it made when the action is refused', async () => {
    const error = await rejected(run('webhook.create', { name: 'badaction', url: base, topics: 't/1', action: '{"resource_opts": {"query_mode": "later"}}' }))
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(400)
    const now = await parts()
    expect(now.connectors).not.toContain('badaction_WH_D')
    expect(now.rules).not.toContain('badaction_WH_D')
  })

  it('refuses bad arguments before sending anything', async () => {
    expect(invalidArgs('webhook.create', { name: 'a b', url: base, topics: 't' })).toEqual(['name:webhook.err.name'])
    expect(invalidArgs('webhook.create', { name: 'a', url: 'ftp://x', topics: 't' })).toEqual(['url:webhook.err.url'])
    expect(invalidArgs('webhook.create', { name: 'a', url: 'http://${host}:80/x', topics: 't' })).toEqual(['url:webhook.err.urlTemplate'])
    expect(invalidArgs('webhook.create', { name: 'a', url: 'http://h/${clientid}', topics: 't/#/x' })).toEqual(['topics:err.topicFilter'])
    expect(invalidArgs('webhook.create', { name: 'a', url: 'http://h/${clientid}', topics: "t/'x'" })).toEqual(['topics:webhook.err.topicQuote'])
    expect(invalidArgs('webhook.create', { name: 'a', url: 'http://h/${clientid}', events: 'client_jumped' })).toEqual(['events:webhook.err.events'])
    expect(invalidArgs('webhook.create', { name: 'a', url: 'http://h/${clientid}', topics: 't', method: 'patch' })).toEqual(['method:err.oneOf'])
    const error = await rejected(run('webhook.create', { name: 'notrigger', url: base }))
    expect(error.message).toBe('webhook.err.trigger')
    expect((await parts()).connectors).not.toContain('notrigger_WH_D')
  })

  it('webhook.delete removes rule, action and connector; a part already gone is no obstacle', async () => {
    await run('webhook.create', { name: 'half', url: base, topics: 't/half' })
    await suite.api.rules.delete('half_WH_D')
    await run('webhook.delete', { name: 'half' })
    await run('webhook.delete', { name: 'orders' })
    const now = await parts()
    for (const list of [now.connectors, now.actions, now.rules]) {
      expect(list.filter((name) => name === 'orders_WH_D' || name === 'half_WH_D')).toEqual([])
    }
    expect(await run('webhooks.list')).toEqual([])
  })
})
