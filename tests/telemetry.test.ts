// Telemetry answered honestly: the embedded server never reports anywhere, so its status is off and
// cannot be turned on, and /telemetry/data shows what EMQX would report about this node, counted
// from real mqtt.js traffic.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { telemetryDataSchema } from '../contract/telemetry.ts'
import { serverPerSuite, startTestServer, waitFor } from './support/server.ts'

describe('telemetry', () => {
  const suite = serverPerSuite()

  it('says telemetry is off and refuses to turn it on, as EMQX words an unchanged status', async () => {
    expect(await suite.api.get('/telemetry/status')).toEqual({ status: 200, body: { enable: false } })
    const put = (body: unknown) => suite.api.request('PUT', '/telemetry/status', body)
    expect(await put({ enable: false })).toEqual({ status: 400, body: { code: 'BAD_REQUEST', message: 'Telemetry status is already disabled' } })
    const on = await put({ enable: true })
    expect(on.status).toBe(400)
    expect(on.body.code).toBe('BAD_REQUEST')
    expect(on.body.message).toMatch(/never sends telemetry/)
    expect((await put({ enable: 'yes' })).status).toBe(400)
    expect((await suite.api.get('/telemetry/status')).body).toEqual({ enable: false })
  })

  it("answers this node's report in EMQX's shape, with real counts", async () => {
    const sub = await suite.t.connect({ clientId: 'telemetry-sub' })
    await sub.subscribeAsync('telemetry/#')
    const pub = await suite.t.connect({ clientId: 'telemetry-pub' })
    await pub.publishAsync('telemetry/kept', 'x', { qos: 1, retain: true })
    await suite.api.request('PUT', '/mqtt/topic_rewrite', [{ action: 'all', source_topic: 'old/#', re: '^old/(.+)$', dest_topic: 'new/$1' }])

    const data = await waitFor(async () => {
      const body = (await suite.api.get('/telemetry/data')).body
      return body.messages_received >= 1 && body.messages_sent >= 1 ? body : undefined
    }, 'the publish to be counted')
    expect(v.safeParse(telemetryDataSchema, data).success).toBe(true)
    expect(data).toMatchObject({
      emqx_version: '5.8.0',
      license: { edition: 'opensource' },
      num_clients: 2,
      num_cluster_sessions: 2,
      nodes_uuid: [],
      active_plugins: [],
      advanced_mqtt_features: { topic_rewrite: 1, delayed: 0, auto_subscribe: 0 },
      exhook: { num_servers: 0, servers: [] },
    })
    expect(data.uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/)
    // Retained messages include the broker's own $SYS ones.
    expect(data.advanced_mqtt_features.retained).toBe((await suite.api.get('/stats?aggregate=true')).body['retained.count'])
    expect(data.mqtt_runtime_insights.num_topics).toBe(1)
    expect(data.vm_specs.num_cpus).toBeGreaterThan(0)
    expect(data.os_name.length).toBeGreaterThan(0)
    await suite.api.request('PUT', '/mqtt/topic_rewrite', [])
    await suite.api.delete('/mqtt/retainer/messages')
  })
})

describe('telemetry ids', () => {
  it('keeps the node id across a restart', async () => {
    const first = await startTestServer()
    const id = (await (await first.login()).get('/telemetry/data')).body.uuid
    await first.close({ keepData: true })
    const again = await startTestServer({ dataDir: first.dataDir })
    try {
      expect((await (await again.login()).get('/telemetry/data')).body.uuid).toBe(id)
    } finally {
      await again.close()
    }
  })
})
