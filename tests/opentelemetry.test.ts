// The OpenTelemetry integration against the real server and real mqtt.js clients, exporting over
// OTLP/gRPC to a real gRPC collector (tests/support/otlp-collector.ts) that decodes what arrives:
// the settings as 5.8 EE answers them, the broker's metrics under EMQX's names, the spans of 5.8's
// legacy and e2e trace modes, and log records from the log sink.
import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { OtelConfigSchema } from '../contract/opentelemetry.ts'
import { Broker } from '../server/broker/broker.ts'
import { OtelFeature } from '../server/areas/opentelemetry/feature.ts'
import { startOtlpCollector, type OtlpCollector } from './support/otlp-collector.ts'
import { log } from '../server/log/index.ts'
import { serverPerSuite, startTestServer, waitFor } from './support/server.ts'

const off = { metrics: { enable: false }, traces: { enable: false }, logs: { enable: false } }

describe('opentelemetry settings', () => {
  const suite = serverPerSuite()

  it("answers 5.8 EE's defaults", async () => {
    const { status, body } = await suite.api.get('/opentelemetry')
    expect(status).toBe(200)
    expect(body.exporter).toEqual({ endpoint: 'http://localhost:4317', protocol: 'grpc', headers: {}, ssl_options: { enable: false, verify: 'verify_peer' } })
    expect(body.metrics).toEqual({ enable: false, interval: '10s' })
    expect(body.logs).toEqual({ level: 'warning', enable: false, max_queue_size: 2048, exporting_timeout: '30s', scheduled_delay: '1s' })
    expect(body.traces).toMatchObject({ enable: false, max_queue_size: 2048, exporting_timeout: '30s', scheduled_delay: '5s' })
    expect(body.traces.filter).toMatchObject({ trace_mode: 'legacy', trace_all: false })
    expect(body.traces.filter.e2e_tracing_options).toMatchObject({ cluster_identifier: 'emqxcl', sample_ratio: '10%', follow_traceparent: true })
  })

  it('refuses a bad endpoint, interval, level or ratio with 400 and changes nothing', async () => {
    const before = (await suite.api.get('/opentelemetry')).body
    for (const body of [
      { exporter: { endpoint: 'localhost:4317' } },
      { exporter: { protocol: 'http' } },
      { metrics: { interval: 'often' } },
      { logs: { level: 'loud' } },
      { traces: { filter: { e2e_tracing_options: { sample_ratio: '150%' } } } },
    ]) {
      const response = await suite.api.request('PUT', '/opentelemetry', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
    expect((await suite.api.get('/opentelemetry')).body).toEqual(before)
  })

  it('keeps the e2e whitelists: replaced by POST, purged by DELETE, limited by *_match_rules_max', async () => {
    expect(await suite.api.get('/opentelemetry/whitelist/clientid')).toEqual({ status: 200, body: [] })
    expect((await suite.api.post('/opentelemetry/whitelist/clientid', ['c1', 'c2'])).status).toBe(204)
    expect((await suite.api.post('/opentelemetry/whitelist/topic', ['t/#'])).status).toBe(204)
    expect((await suite.api.get('/opentelemetry/whitelist/clientid')).body).toEqual(['c1', 'c2'])
    await suite.api.request('PUT', '/opentelemetry', { traces: { filter: { e2e_tracing_options: { clientid_match_rules_max: 2 } } } })
    const tooMany = await suite.api.post('/opentelemetry/whitelist/clientid', ['a', 'b', 'c'])
    expect(tooMany).toEqual({ status: 400, body: { code: 'BAD_REQUEST', message: "The number of 'clientid' exceeds the white list maximum limit." } })
    expect((await suite.api.get('/opentelemetry/whitelist/clientid')).body).toEqual(['c1', 'c2'])
    expect((await suite.api.post('/opentelemetry/whitelist/clientid', 'c1')).status).toBe(400)
    expect((await suite.api.get('/opentelemetry/whitelist/username')).status).toBe(400)
    expect((await suite.api.delete('/opentelemetry/whitelist/clientid')).status).toBe(204)
    expect((await suite.api.get('/opentelemetry/whitelist/clientid')).body).toEqual([])
    expect((await suite.api.get('/opentelemetry/whitelist/topic')).body).toEqual(['t/#'])
    await suite.api.delete('/opentelemetry/whitelist/topic')
    await suite.api.request('PUT', '/opentelemetry', { traces: { filter: { e2e_tracing_options: { clientid_match_rules_max: 30 } } } })
  })

  it('takes the legacy shape (top-level enable, exporter.interval) as metrics settings', async () => {
    const response = await suite.api.request('PUT', '/opentelemetry', { enable: false, exporter: { interval: '20s' } })
    expect(response.status).toBe(200)
    expect(response.body.metrics).toEqual({ enable: false, interval: '20s' })
    expect(response.body).not.toHaveProperty('enable')
    expect(response.body.exporter).not.toHaveProperty('interval')
  })
})

describe('opentelemetry export over OTLP/gRPC', () => {
  const suite = serverPerSuite()
  let collector: OtlpCollector

  beforeAll(async () => {
    collector = await startOtlpCollector()
  })
  afterEach(async () => {
    await suite.api.request('PUT', '/opentelemetry', off)
    collector.metrics.length = 0
    collector.spans.length = 0
  })
  afterAll(async () => {
    await collector.stop()
  })

  it("exports the broker's stats and metrics under EMQX's names, with the headers as metadata", async () => {
    await suite.t.connect({ clientId: 'otel-metrics' })
    const put = await suite.api.request('PUT', '/opentelemetry', { exporter: { endpoint: collector.endpoint, headers: { 'x-tenant': 'emqx-test' } }, metrics: { enable: true, interval: '1s' } })
    expect(put.status).toBe(200)
    const connections = await waitFor(() => collector.metrics.find((m) => m.name === 'connections.count'), 'connections.count to arrive', 10_000)
    expect(connections).toMatchObject({ kind: 'gauge', value: 1, unit: '1', description: 'observable connections.count gauge' })
    const names = new Set(collector.metrics.map((m) => m.name))
    for (const name of ['messages.received', 'packets.connect', 'messages.dropped.expired', 'cpu.use', 'used.memory', 'node.running', 'subscriptions.count'])
      expect(names, name).toContain(name)
    expect(names).not.toContain('packets.connect.received')
    const received = collector.metrics.find((m) => m.name === 'bytes.received')
    expect(received).toMatchObject({ kind: 'sum', unit: 'kb', description: 'observable bytes.received counter' })
    expect(received!.value).toBeGreaterThan(0)
    expect(collector.lastMetadata['x-tenant']).toBe('emqx-test')
  })

  it("legacy mode: a PUBLISH with a traceparent gets process_message under it and send_published_message per delivery", async () => {
    await suite.api.request('PUT', '/opentelemetry', { exporter: { endpoint: collector.endpoint, headers: {} }, traces: { enable: true, scheduled_delay: '100ms' } })
    const sub = await suite.t.connect({ clientId: 'otel-sub', protocolVersion: 5 })
    await sub.subscribeAsync('otel/#')
    const pub = await suite.t.connect({ clientId: 'otel-pub', protocolVersion: 5 })
    const traceId = '0af7651916cd43dd8448eb211c80319c'
    const parentId = 'b7ad6b7169203331'
    await pub.publishAsync('otel/traced', 'x', { qos: 1, properties: { userProperties: { traceparent: `00-${traceId}-${parentId}-01` } } })
    await pub.publishAsync('otel/untraced', 'y', { qos: 1 })
    const sent = await waitFor(() => collector.spans.find((s) => s.name === 'send_published_message'), 'send_published_message', 10_000)
    const processed = await waitFor(() => collector.spans.find((s) => s.name === 'process_message'), 'process_message', 10_000)
    expect(processed).toMatchObject({ traceId, parentSpanId: parentId, attributes: { 'messaging.destination.name': 'otel/traced', 'messaging.client_id': 'otel-pub' } })
    expect(sent).toMatchObject({ traceId, parentSpanId: processed.spanId, attributes: { 'messaging.destination.name': 'otel/traced', 'messaging.client_id': 'otel-sub' } })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(collector.spans.filter((s) => s.attributes['messaging.destination.name'] === 'otel/untraced')).toEqual([])
  })

  it('legacy mode with trace_all traces every message, and none once traces are off', async () => {
    await suite.api.request('PUT', '/opentelemetry', { exporter: { endpoint: collector.endpoint }, traces: { enable: true, scheduled_delay: '100ms', filter: { trace_all: true } } })
    const pub = await suite.t.connect({ clientId: 'otel-all' })
    await pub.publishAsync('otel/all', 'x', { qos: 1 })
    await waitFor(() => collector.spans.find((s) => s.name === 'process_message' && s.attributes['messaging.destination.name'] === 'otel/all'), 'a span without traceparent', 10_000)
    await suite.api.request('PUT', '/opentelemetry', { traces: { enable: false } })
    await pub.publishAsync('otel/after', 'x', { qos: 1 })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(collector.spans.some((s) => s.attributes['messaging.destination.name'] === 'otel/after')).toBe(false)
  })

  it('e2e mode: client.connect, client.subscribe and client.publish spans as the options switch them on', async () => {
    await suite.api.request('PUT', '/opentelemetry', {
      exporter: { endpoint: collector.endpoint },
      traces: {
        enable: true,
        scheduled_delay: '100ms',
        filter: { trace_mode: 'e2e', e2e_tracing_options: { sample_ratio: '100%', client_connect_disconnect: true, client_subscribe_unsubscribe: true, client_messaging: true } },
      },
    })
    const client = await suite.t.connect({ clientId: 'otel-e2e', username: 'e2e-user' })
    await client.subscribeAsync('e2e/#')
    await client.publishAsync('e2e/1', 'x', { qos: 1 })
    const connect = await waitFor(() => collector.spans.find((s) => s.name === 'client.connect'), 'client.connect', 10_000)
    expect(connect.attributes).toMatchObject({ 'client.clientid': 'otel-e2e', 'client.username': 'e2e-user', 'client.proto_name': 'MQTT', 'client.connack.reason_code': 'success' })
    const subscribe = await waitFor(() => collector.spans.find((s) => s.name === 'client.subscribe'), 'client.subscribe', 10_000)
    expect(subscribe.attributes).toMatchObject({ 'client.clientid': 'otel-e2e', 'client.subscribe.topics': '["e2e/#"]' })
    const publish = await waitFor(() => collector.spans.find((s) => s.name === 'client.publish'), 'client.publish', 10_000)
    expect(publish.attributes).toMatchObject({ 'client.clientid': 'otel-e2e', 'message.topic': 'e2e/1' })
    const delivered = await waitFor(() => collector.spans.find((s) => s.name === 'broker.publish'), 'broker.publish', 10_000)
    expect(delivered).toMatchObject({ traceId: publish.traceId, parentSpanId: publish.spanId })
  })

  it('e2e mode traces a whitelisted client id or topic with every event switched off, and no one else', async () => {
    await suite.api.request('PUT', '/opentelemetry', {
      exporter: { endpoint: collector.endpoint },
      traces: {
        enable: true,
        scheduled_delay: '100ms',
        filter: { trace_mode: 'e2e', e2e_tracing_options: { sample_ratio: '100%', client_connect_disconnect: false, client_subscribe_unsubscribe: false, client_messaging: false } },
      },
    })
    await suite.api.post('/opentelemetry/whitelist/clientid', ['otel-watched'])
    await suite.api.post('/opentelemetry/whitelist/topic', ['watched/+'])
    try {
      const watched = await suite.t.connect({ clientId: 'otel-watched' })
      const other = await suite.t.connect({ clientId: 'otel-other' })
      await other.subscribeAsync('x/#')
      await other.publishAsync('watched/1', 'x', { qos: 1 })
      await other.publishAsync('plain/1', 'x', { qos: 1 })
      await watched.subscribeAsync('y/#')
      await waitFor(() => collector.spans.find((s) => s.name === 'client.subscribe' && s.attributes['client.clientid'] === 'otel-watched'), 'the watched client subscribing', 10_000)
      await waitFor(() => collector.spans.find((s) => s.name === 'client.publish' && s.attributes['message.topic'] === 'watched/1'), 'the watched topic', 10_000)
      expect(collector.spans.find((s) => s.name === 'client.connect' && s.attributes['client.clientid'] === 'otel-watched')).toBeDefined()
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(collector.spans.filter((s) => s.name === 'client.connect' && s.attributes['client.clientid'] === 'otel-other')).toEqual([])
      expect(collector.spans.filter((s) => s.name === 'client.subscribe' && s.attributes['client.clientid'] === 'otel-other')).toEqual([])
      expect(collector.spans.filter((s) => s.attributes['message.topic'] === 'plain/1')).toEqual([])
    } finally {
      await suite.api.delete('/opentelemetry/whitelist/clientid')
      await suite.api.delete('/opentelemetry/whitelist/topic')
    }
  })
})

describe('opentelemetry log sink', () => {
  let collector: OtlpCollector
  beforeAll(async () => {
    collector = await startOtlpCollector()
  })
  afterAll(async () => {
    await collector.stop()
  })
  const at = () => Date.now() * 1000

  it('emits the records at or above logs.level as OTel log records, and nothing while logs are off', async () => {
    const broker = new Broker()
    const store = new Map<string, unknown>()
    const otel = new OtelFeature(broker, { get: (key) => store.get(key), set: (key, value) => void store.set(key, value) })
    const sink = otel.logSink
    sink({ level: 'error', msg: 'before enabling', time: at(), fields: {} })
    otel.configure(v.parse(OtelConfigSchema, { exporter: { endpoint: collector.endpoint }, logs: { enable: true, level: 'warning', scheduled_delay: '100ms' } }))
    sink({ level: 'error', msg: 'authentication failed', time: at(), fields: { clientid: 'c1', detail: { reason: 'bad_password' } } })
    sink({ level: 'info', msg: 'an info line below the level', time: at(), fields: {} })
    sink({ level: 'warning', msg: 'a warning', time: at(), fields: {} })
    await otel.flush()
    const error = await waitFor(() => collector.logs.find((l) => l.body === 'authentication failed'), 'the error record', 10_000)
    expect(error).toMatchObject({ severityText: 'error', severityNumber: 17, attributes: { clientid: 'c1', detail: '{"reason":"bad_password"}' } })
    expect(collector.logs.find((l) => l.body === 'a warning')).toMatchObject({ severityText: 'warning', severityNumber: 13 })
    expect(collector.logs.map((l) => l.body)).not.toContain('an info line below the level')
    expect(collector.logs.map((l) => l.body)).not.toContain('before enabling')
    otel.stop()
    sink({ level: 'emergency', msg: 'after stop', time: at(), fields: {} })
    await otel.stopped()
    expect(collector.logs.map((l) => l.body)).not.toContain('after stop')
    await broker.close()
  })

  it("receives the server logger's records once PUT /opentelemetry enables logs, and none once it disables them", async () => {
    const t = await startTestServer()
    try {
      const api = await t.login()
      await api.request('PUT', '/opentelemetry', { exporter: { endpoint: collector.endpoint }, logs: { enable: true, level: 'error', scheduled_delay: '100ms' } })
      log.error({ clientid: 'wired-1' }, 'otel_wiring_check')
      log.warning({ clientid: 'wired-1' }, 'otel_below_level')
      const record = await waitFor(() => collector.logs.find((l) => l.body === 'otel_wiring_check'), 'the logged record', 10_000)
      expect(record).toMatchObject({ severityText: 'error', attributes: { clientid: 'wired-1' } })
      await api.request('PUT', '/opentelemetry', { logs: { enable: false } })
      log.error('otel_after_disable')
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(collector.logs.map((l) => l.body)).not.toContain('otel_after_disable')
      expect(collector.logs.map((l) => l.body)).not.toContain('otel_below_level')
    } finally {
      await t.close()
    }
  })
})
