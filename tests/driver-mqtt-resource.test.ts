// The MQTT type through the REST areas and the rule engine on the real server: a rule's messages go
// out through an MQTT action to another broker (a second embedded one), a source brings that broker's
// messages to the rules, and against mosquitto stopped and started again the connector shows the
// reason while rows wait in the buffer, then delivers every one of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasMosquitto, startMosquitto } from './support/mosquitto.ts'
import { collect, connectMqtt, endClients, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'

let local: TestServer
let remote: TestServer
let api: Api

beforeAll(async () => {
  local = await startTestServer()
  remote = await startTestServer()
  api = await local.login()
})

afterAll(async () => {
  await endClients()
  await local.close()
  await remote.close()
})

describe('mqtt connectors, actions and sources on the server', () => {
  it('a rule sends through the action to the remote broker, and the source feeds a rule from it', async () => {
    const server = `127.0.0.1:${remote.server.mqttPort}`
    const refused = await api.post('/connectors', { type: 'mqtt', name: 'up', server, static_clientids: [{ node: 'a', ids: ['x'] }, { node: 'a', ids: ['y'] }] })
    expect(refused.body).toEqual({ code: 'BAD_REQUEST', message: 'static_clientids: nodes must be unique; duplicated nodes: a' })
    const connector = await api.post('/connectors', { type: 'mqtt', name: 'up', server, pool_size: 2, proto_ver: 'v5' })
    expect(connector.status).toBe(201)
    expect(connector.body).toMatchObject({ status: 'connected', proto_ver: 'v5', keepalive: '160s', clean_start: true })

    const bad = await api.post('/actions', { type: 'mqtt', name: 'fwd', connector: 'up', parameters: { qos: 1 } })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain('parameters.topic: required_field')
    const action = await api.post('/actions', { type: 'mqtt', name: 'fwd', connector: 'up', parameters: { topic: 'remote/${topic}', payload: '${payload}' } })
    expect(action.status).toBe(201)
    expect(action.body).toMatchObject({ status: 'connected', parameters: { topic: 'remote/${topic}', qos: 1, retain: false } })
    expect((await api.post('/rules', { id: 'out', sql: 'SELECT * FROM "t/#"', actions: ['mqtt:fwd'] })).status).toBe(201)

    const watcher = await connectMqtt(remote.mqttUrl)
    const remoteSeen = collect(watcher)
    await watcher.subscribeAsync('remote/#', { qos: 1 })
    const device = await connectMqtt(local.mqttUrl)
    await device.publishAsync('t/1', 'from-local', { qos: 1 })
    expect(await waitFor(() => remoteSeen[0], 'the forwarded message')).toEqual({ topic: 'remote/t/1', payload: 'from-local', qos: 1, retain: false })
    await waitFor(async () => (await api.get('/actions/mqtt:fwd/metrics')).body.metrics.success === 1, 'success counted')

    const badSource = await api.post('/sources', { type: 'mqtt', name: 'in', connector: 'up', parameters: { topic: 'in/#/x' } })
    expect(badSource.status).toBe(400)
    expect(badSource.body.message).toContain('parameters.topic: topic_invalid_#')
    const source = await api.post('/sources', { type: 'mqtt', name: 'in', connector: 'up', parameters: { topic: '$share/g/in/#' } })
    expect(source.status).toBe(201)
    const republish = { function: 'republish', args: { topic: 'local/${topic}', payload: '${payload} via ${server}' } }
    expect((await api.post('/rules', { id: 'in', sql: 'SELECT * FROM "$bridges/mqtt:in"', actions: [republish] })).status).toBe(201)
    const listener = await connectMqtt(local.mqttUrl)
    const localSeen = collect(listener)
    await listener.subscribeAsync('local/#', { qos: 1 })
    await watcher.publishAsync('in/x', 'hello', { qos: 1 })
    expect(await waitFor(() => localSeen[0], 'the ingress message republished')).toMatchObject({ topic: 'local/in/x', payload: `hello via ${server}` })
  })

  it.skipIf(!hasMosquitto())('a remote that goes down shows the reason and keeps rows queued; back up, every row arrives', { timeout: 60_000 }, async () => {
    const mosquitto = await startMosquitto()
    try {
      const created = await api.post('/connectors', {
        type: 'mqtt',
        name: 'mosq',
        server: `127.0.0.1:${mosquitto.port}`,
        pool_size: 1,
        resource_opts: { health_check_interval: '200ms' },
      })
      expect(created.body.status).toBe('connected')
      await api.post('/actions', { type: 'mqtt', name: 'tomosq', connector: 'mosq', parameters: { topic: 'q/${payload}' }, resource_opts: { health_check_interval: '200ms', resume_interval: '200ms' } })
      await api.post('/rules', { id: 'tomosq', sql: 'SELECT * FROM "buf/#"', actions: ['mqtt:tomosq'] })

      await mosquitto.halt()
      const down = await waitFor(async () => {
        const { body } = await api.get('/connectors/mqtt:mosq')
        return body.status === 'disconnected' ? body : undefined
      }, 'the connector disconnected', 15_000)
      expect(down.status_reason).toMatch(/^Connection refused|disconnected/)

      const device = await connectMqtt(local.mqttUrl)
      for (let i = 0; i < 5; i++) await device.publishAsync(`buf/${i}`, String(i), { qos: 1 })
      await waitFor(async () => (await api.get('/actions/mqtt:tomosq/metrics')).body.metrics.matched === 5, 'five matched')
      expect((await api.get('/actions/mqtt:tomosq/metrics')).body.metrics.success).toBe(0)

      await mosquitto.start()
      const watcher = await connectMqtt(mosquitto.url)
      const seen = collect(watcher)
      await watcher.subscribeAsync('q/#', { qos: 1 })
      await waitFor(() => seen.length === 5, 'every queued row delivered', 30_000)
      expect(seen.map((m) => m.topic).sort()).toEqual(['q/0', 'q/1', 'q/2', 'q/3', 'q/4'])
      await waitFor(async () => (await api.get('/connectors/mqtt:mosq')).body.status === 'connected', 'connected again')
    } finally {
      await mosquitto.stop()
    }
  })
})
