// 5.8.9's `action_template_rendered` (QUERY_RENDER) lines: each data-integration driver, sending to its
// real target (node:http, Debian's Redis, PostgreSQL, MariaDB, InfluxDB and mosquitto), reports what it
// rendered; the line goes to the rule trace of the rule and the client trace of the publishing client
// (a buffer worker's rule_ids and client_ids), in the text and JSON formatters, and nowhere else; a rule
// test stopping the action after rendering writes it and then 5.8's ACTION line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MysqlBackend } from '../server/backends/mysql.ts'
import { PostgresBackend } from '../server/backends/postgresql.ts'
import { hasDbServer, startInfluxdb, startMariadb, startPostgres, startRedis, type DbServer } from './support/db-servers.ts'
import { startHttpTarget, type HttpTarget } from './support/http-target.ts'
import { hasMosquitto, startMosquitto, type Mosquitto } from './support/mosquitto.ts'
import { connectMqtt, endClients, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'
import { createTrace, logContaining, readLog } from './support/trace-log.ts'
import { renderTraceLine, traceKind } from '../src/features/logTrace/traceLineView.ts'
import { fixtureAction, fixtureTarget, installFixtureType } from './support/fixture-integration.ts'

let local: TestServer
let api: Api
let http: HttpTarget
const stops: Array<() => Promise<void>> = []

beforeAll(async () => {
  installFixtureType()
  local = await startTestServer()
  api = await local.login()
  http = await startHttpTarget()
})

afterAll(async () => {
  await endClients()
  await local.close()
  await http.close()
  for (const stop of stops) await stop()
})

const rendered = (text: string) => text.split('\n').filter((line) => line.includes('[QUERY_RENDER]'))
const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { msg: string; meta: Record<string, unknown> })

async function created(path: string, body: Record<string, unknown>) {
  const answer = await api.post(path, body)
  expect(answer.status, JSON.stringify(answer.body)).toBe(201)
  return answer.body
}

/** A connector and an action named `name`, and a rule `to_<name>` sending `tr/<name>/#` to it. */
async function route(type: string, name: string, connector: Record<string, unknown>, action: Record<string, unknown>) {
  expect((await created('/connectors', { type, name, ...connector })).status).toBe('connected')
  await created('/actions', { type, name, connector: name, ...action })
  await created('/rules', { id: `to_${name}`, sql: `SELECT * FROM "tr/${name}/#"`, actions: [`${type}:${name}`] })
}

/** A database started with `table` made in it; answers the connector config that reaches it. */
async function withTable(start: () => Promise<DbServer>, Backend: typeof PostgresBackend | typeof MysqlBackend, table: string) {
  const db = await start()
  stops.push(() => db.stop())
  const config = { server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password }
  const backend = new Backend(config)
  await backend.execute(`CREATE TABLE ${table}`, [])
  await backend.close()
  return config
}

/** Publishes from `tr-<name>` and answers the rule trace's log once the action succeeded and its send rendered. */
async function published(name: string, payloads: string[]): Promise<string> {
  await createTrace(api, { name: `rule_${name}`, type: 'ruleid', ruleid: `to_${name}` })
  const device = await connectMqtt(local.mqttUrl, { clientId: `tr-${name}` })
  for (const [i, payload] of payloads.entries()) await device.publishAsync(`tr/${name}/${i}`, payload, { qos: 1 })
  return logContaining(api, `rule_${name}`, 'action_success', 'action_template_rendered')
}

/** A start five seconds back: a second trace of the same rule is not a duplicate (5.8 compares the start too). */
const EARLIER = () => Math.floor(Date.now() / 1000) - 5

const PREFIX = String.raw`^\S+ \[QUERY_RENDER\] @ msg: action_template_rendered, `

describe('QUERY_RENDER lines', () => {
  it('with no trace running a send is given nothing to report to; with one on the rule it is', async () => {
    const target = fixtureTarget('render')
    await route('fixture', 'fx', { target: 'render' }, { parameters: { prefix: 'p' } })
    const device = await connectMqtt(local.mqttUrl, { clientId: 'tr-fx' })
    await device.publishAsync('tr/fx/1', 'one', { qos: 1 })
    await waitFor(() => target.rows.length === 1, 'the first row sent')
    await createTrace(api, { name: 'fxRule', type: 'ruleid', ruleid: 'to_fx' })
    await device.publishAsync('tr/fx/2', 'two', { qos: 1 })
    await waitFor(() => target.rows.length === 2, 'the second row sent')
    expect(target.traced).toEqual([false, true])
    expect(await logContaining(api, 'fxRule', 'action_template_rendered')).toMatch(/action_id: action:fixture:fx:connector:fixture:fx, client_ids: \[tr-fx: true\], result: \[prefix: p, rows: 1\], rule_ids: \[to_fx: true\]/)
    expect((await api.delete('/trace/fxRule')).status).toBe(204)
  })

  it('HTTP: the request with its Authorization redacted, in the rule’s and the client’s traces, text and JSON; not in others', async () => {
    await route('http', 'hook', { url: `${http.url}/in`, headers: { Authorization: 'Bearer secret-token' } }, { parameters: { method: 'post', path: '/${clientid}', body: '${payload}' } })
    await createTrace(api, { name: 'hookJson', type: 'ruleid', ruleid: 'to_hook', formatter: 'json', start_at: EARLIER() })
    await createTrace(api, { name: 'hookClient', type: 'clientid', clientid: 'tr-hook' })
    await createTrace(api, { name: 'otherClient', type: 'clientid', clientid: 'tr-other' })
    await createTrace(api, { name: 'hookTopic', type: 'topic', topic: 'tr/hook/#' })
    const text = await published('hook', ['{"t":1}'])
    expect(http.received).toContain('{"t":1}')
    const [line] = rendered(text)
    const port = http.port
    expect(line).toMatch(
      new RegExp(
        PREFIX +
          String.raw`action_id: action:http:hook:connector:http:hook, client_ids: \[tr-hook: true\], ` +
          String.raw`result: \[body: \{"t":1\}, headers: \[[^\]]*\{<<"Authorization">>,<<"\*\*\*\*\*\*">>\}[^\]]*\], host: 127\.0\.0\.1, method: post, path: /in/tr-hook, port: ${port}, timeout: \d+, url: http://127\.0\.0\.1:${port}/in/tr-hook\], ` +
          String.raw`rule_ids: \[to_hook: true\], rule_trigger_ts: \[\d+\]$`,
      ),
    )
    expect(line).not.toContain('secret-token')
    // The console's trace view colours it as the rule engine's other lines.
    expect(traceKind(line)).toBe('QUERY_RENDER')
    expect(renderTraceLine(line).startsWith('\x1b[35m')).toBe(true)
    // It comes after the rule's bridge_action and before its result, as the buffer worker writes it.
    expect(text.indexOf('bridge_action')).toBeLessThan(text.indexOf('action_template_rendered'))
    expect(text.indexOf('action_template_rendered')).toBeLessThan(text.indexOf('action_success'))

    const json = jsonLines(await logContaining(api, 'hookJson', 'action_template_rendered')).find((entry) => entry.msg === 'action_template_rendered')!
    expect(json.meta).toEqual({
      trace_tag: 'QUERY_RENDER',
      action_info: { type: 'http', name: 'hook' },
      client_ids: ['tr-hook'],
      rule_ids: ['to_hook'],
      rule_trigger_ts: [expect.any(Number)],
      result: {
        body: '{"t":1}',
        headers: expect.objectContaining({ Authorization: '******' }),
        host: '127.0.0.1',
        method: 'post',
        path: '/in/tr-hook',
        port,
        timeout: expect.any(Number),
        url: `http://127.0.0.1:${port}/in/tr-hook`,
      },
    })
    const [byClient] = rendered(await logContaining(api, 'hookClient', 'action_template_rendered'))
    expect(byClient.replace(/^\S+/, '')).toBe(line.replace(/^\S+/, ''))
    const other = await readLog(api, 'otherClient')
    expect(other).not.toContain('action_template_rendered')
    expect(await readLog(api, 'hookTopic')).not.toContain('action_template_rendered')
  })

  it('a driver 5.8 queries in the caller (Kafka’s kind) writes the caller’s client, peer, user name and rule too: an address trace has it', async () => {
    fixtureAction.rendersInCaller = true
    try {
      await route('fixture', 'fk', { target: 'caller' }, { parameters: { prefix: 'k' } })
      await createTrace(api, { name: 'fkAddress', type: 'ip_address', ip_address: '127.0.0.1' })
      await createTrace(api, { name: 'fkJson', type: 'ruleid', ruleid: 'to_fk', formatter: 'json' })
      const device = await connectMqtt(local.mqttUrl, { clientId: 'tr-fk', username: 'uk' })
      await device.publishAsync('tr/fk/1', 'one', { qos: 1 })
      const [line] = rendered(await logContaining(api, 'fkAddress', 'action_template_rendered'))
      expect(line).toMatch(/^\S+ \[QUERY_RENDER\] tr-fk@127\.0\.0\.1:\d+ msg: action_template_rendered, action_id: action:fixture:fk:connector:fixture:fk, client_ids: \[tr-fk: true\], result: \[prefix: k, rows: 1\], rule_id: to_fk, rule_ids: \[to_fk: true\], rule_trigger_ts: \[\d+\], username: uk$/)
      const json = jsonLines(await logContaining(api, 'fkJson', 'action_template_rendered')).find((entry) => entry.msg === 'action_template_rendered')!
      expect(json.meta).toMatchObject({ clientid: 'tr-fk', peername: expect.stringMatching(/^127\.0\.0\.1:\d+$/), rule_id: 'to_fk', rule_ids: ['to_fk'], client_ids: ['tr-fk'], username: 'uk' })
      expect((await api.delete('/trace/fkAddress')).status).toBe(204)
    } finally {
      fixtureAction.rendersInCaller = false
    }
  })

  it('a trace of another rule gets no line', async () => {
    await route('http', 'quiet', { url: http.url }, { parameters: { body: '${payload}' } })
    await createTrace(api, { name: 'quietOther', type: 'ruleid', ruleid: 'to_nothing' })
    const device = await connectMqtt(local.mqttUrl, { clientId: 'tr-quiet' })
    await device.publishAsync('tr/quiet/1', 'q1', { qos: 1 })
    await waitFor(() => http.received.includes('q1'), 'q1 sent')
    expect(await readLog(api, 'quietOther')).toBe('')
  })

  it('a rule test that stops after rendering: the line with stop_action_after_render, then 5.8’s ACTION line, and nothing sent', async () => {
    const before = http.received.length
    const context = { event_type: 'message_publish', topic: 'tr/hook/t', payload: 'tested', clientid: 'c-test', username: 'u' }
    expect(await api.post('/rules/to_hook/test', { context })).toEqual({ status: 200, body: ['ok'] })
    const text = await logContaining(api, 'rule_hook', 'action_stopped_after_template_rendering')
    const [line] = rendered(text).filter((one) => one.includes('stop_action_after_render'))
    expect(line).toMatch(new RegExp(PREFIX + String.raw`action_id: action:http:hook:connector:http:hook, client_ids: \[c-test: true\], result: \[body: tested, .*, rule_ids: \[to_hook: true\], rule_trigger_ts: \[\d+\], stop_action_after_render: true$`))
    expect(text).toMatch(
      /\[ACTION\] c-test@ msg: action_stopped_after_template_rendering, action_info: \[name: hook, type: http\], reason: Action action:http:hook:connector:http:hook stopped after template rendering due to test setting\., rule_id: to_hook, rule_trigger_ts: \[\d+\], stop_action_after_render: true\n/,
    )
    expect(http.received.length).toBe(before)
    // Every line of the test's run carries the flag, as 5.8's sqltester sets it in the process metadata.
    expect(text).toMatch(/\[BRIDGE\] c-test@\S* msg: bridge_action, action_info: \[name: hook, type: http\], rule_id: to_hook, rule_trigger_ts: \[\d+\], stop_action_after_render: true, username: u\n/)
    expect(text).toMatch(/\[RULE_SQL_EXEC\] c-test@\S* msg: rule_activated, .*, stop_action_after_render: true, username: u\n/)
  })

  it('republish and console: their render lines name the function with its arguments; republish_message follows unless a test stops it', async () => {
    const republish = { function: 'republish', args: { topic: 'out/${clientid}', payload: 'was ${payload}', qos: 1, retain: false, user_properties: '', mqtt_properties: {}, direct_dispatch: false } }
    await created('/rules', { id: 'to_fn', sql: 'SELECT * FROM "tr/fn/#"', actions: [republish, { function: 'console' }] })
    await createTrace(api, { name: 'fnJson', type: 'ruleid', ruleid: 'to_fn', formatter: 'json' })
    const device = await connectMqtt(local.mqttUrl, { clientId: 'tr-fn' })
    await device.publishAsync('tr/fn/1', 'hello', { qos: 1 })
    const lines = jsonLines(await logContaining(api, 'fnJson', 'republish_message', '"func":"console"'))
    const renders = lines.filter((line) => line.msg === 'action_template_rendered')
    expect(renders.map((line) => (line.meta.action_info as { func: string }).func)).toEqual(['republish', 'console'])
    expect(renders[0].meta).toMatchObject({
      action_info: { mod: 'emqx_rule_actions', func: 'republish', args: { topic: 'out/${clientid}', payload: 'was ${payload}', qos: 1 } },
      result: { topic: 'out/tr-fn', payload: 'was hello', direct_dispatch: false, flags: { retain: false } },
      rule_id: 'to_fn',
    })
    expect(renders[1].meta).toMatchObject({ action_info: { mod: 'emqx_rule_actions', func: 'console' }, result: { selected: { payload: 'hello', clientid: 'tr-fn' } } })
    expect(lines.find((line) => line.msg === 'republish_message')?.meta).toMatchObject({ topic: 'out/tr-fn', payload: 'was hello', trace_tag: 'RULE' })

    // A rule test stopping after rendering: the render lines, then stopped; nothing republished.
    const context = { event_type: 'message_publish', topic: 'tr/fn/t', payload: 'tested', clientid: 'c-fn' }
    expect((await api.post('/rules/to_fn/test', { context })).status).toBe(200)
    const tested = jsonLines(await logContaining(api, 'fnJson', '"payload":"was tested"', 'action_stopped_after_template_rendering')).filter((line) => line.meta.clientid === 'c-fn')
    expect(tested.filter((line) => line.msg === 'action_template_rendered')).toHaveLength(2)
    expect(tested.filter((line) => line.msg === 'action_stopped_after_template_rendering')).toHaveLength(2)
    expect(tested.some((line) => line.msg === 'republish_message')).toBe(false)
  })

  it.skipIf(!hasDbServer('redis'))('Redis: the command, its arguments run together as 5.8’s text writes a list', { timeout: 60_000 }, async () => {
    const db = await startRedis()
    stops.push(() => db.stop())
    await route('redis', 'rd', { parameters: { redis_type: 'single', server: `${db.host}:${db.port}`, password: db.password } }, { parameters: { command_template: ['LPUSH', 'k:${clientid}', '${payload}'] } })
    const [line] = rendered(await published('rd', ['v1']))
    expect(line).toMatch(new RegExp(PREFIX + String.raw`action_id: action:redis:rd:connector:redis:rd, client_ids: \[tr-rd: true\], result: \[batch: false, command: LPUSHk:tr-rdv1\], rule_ids: \[to_rd: true\], `))
  })

  it.skipIf(!hasDbServer('postgresql'))('PostgreSQL: the prepared statement by the action’s id and its parameters', { timeout: 90_000 }, async () => {
    const connector = await withTable(startPostgres, PostgresBackend, 't_render (topic TEXT, qos INT)')
    await route('pgsql', 'pg', connector, { parameters: { sql: 'insert into t_render(topic, qos) values (${topic}, ${qos})' } })
    await createTrace(api, { name: 'pgJson', type: 'ruleid', ruleid: 'to_pg', formatter: 'json', start_at: EARLIER() })
    const [line] = rendered(await published('pg', ['p']))
    // 5.8's text writes [<<"tr/pg/0">>,1] as chardata: the topic followed by the character 1.
    expect(line).toMatch(new RegExp(PREFIX + String.raw`action_id: action:pgsql:pg:connector:pgsql:pg, client_ids: \[tr-pg: true\], result: \[data: tr/pg/0\u0001, statement_or_name: action:pgsql:pg:connector:pgsql:pg, statement_type: prepared_query\], `))
    const json = jsonLines(await logContaining(api, 'pgJson', 'action_template_rendered')).find((entry) => entry.msg === 'action_template_rendered')!
    expect(json.meta.result).toEqual({ data: 'tr/pg/0\u0001', statement_or_name: 'action:pgsql:pg:connector:pgsql:pg', statement_type: 'prepared_query' })
  })

  it.skipIf(!hasDbServer('mariadb'))('MySQL: a batch is one INSERT, with the rows of two clients in one line', { timeout: 90_000 }, async () => {
    const connector = await withTable(startMariadb, MysqlBackend, 't_render (topic VARCHAR(64), payload TEXT)')
    await route('mysql', 'my', connector, { parameters: { sql: 'insert into t_render(topic, payload) values (${topic}, ${payload})' }, resource_opts: { batch_size: 10, batch_time: '300ms', worker_pool_size: 1 } })
    await createTrace(api, { name: 'myClient', type: 'clientid', clientid: 'tr-my2' })
    await createTrace(api, { name: 'rule_my', type: 'ruleid', ruleid: 'to_my' })
    const one = await connectMqtt(local.mqttUrl, { clientId: 'tr-my' })
    const two = await connectMqtt(local.mqttUrl, { clientId: 'tr-my2' })
    await Promise.all([one.publishAsync('tr/my/a', 'x', { qos: 1 }), two.publishAsync('tr/my/b', 'y', { qos: 1 })])
    const [line] = rendered(await logContaining(api, 'rule_my', 'action_template_rendered'))
    expect(line).toMatch(new RegExp(PREFIX + String.raw`action_id: action:mysql:my:connector:mysql:my, client_ids: \[tr-my: true, tr-my2: true\], result: \[parameters: tr/my/axtr/my/by, sql_or_key: insert into t_render\(topic, payload\) values \(\?, \?\),\(\?, \?\)\], rule_ids: \[to_my: true\], rule_trigger_ts: \[\d+,\d+\]$`))
    // The second client's trace has the batch's line too (its client id is among the batch's).
    expect(rendered(await logContaining(api, 'myClient', 'action_template_rendered'))).toHaveLength(1)
  })

  it.skipIf(!hasDbServer('influxdb'))('InfluxDB: the points and whether the write is async', { timeout: 90_000 }, async () => {
    const db = await startInfluxdb()
    stops.push(() => db.stop())
    const connector = { server: `${db.host}:${db.port}`, parameters: { influxdb_type: 'influxdb_api_v1', database: db.database, username: db.user, password: db.password } }
    await route('influxdb', 'ix', connector, { parameters: { write_syntax: 'm,client=${clientid} v=${payload} 1700000000000', precision: 'ms' } })
    const [line] = rendered(await published('ix', ['5']))
    expect(line).toMatch(new RegExp(PREFIX + String.raw`action_id: action:influxdb:ix:connector:influxdb:ix, client_ids: \[tr-ix: true\], result: \[is_async: true, points: m,client=tr-ix v="5" 1700000000000\], `))
  })

  it.skipIf(!hasMosquitto())('MQTT egress: topic, QoS, retain, properties and the payload in the trace’s encoding', { timeout: 60_000 }, async () => {
    const remote: Mosquitto = await startMosquitto()
    stops.push(() => remote.stop())
    await route('mqtt', 'eg', { server: `127.0.0.1:${remote.port}` }, { parameters: { topic: 'fwd/${topic}', qos: 1, retain: false, payload: 'got ${payload}' } })
    await createTrace(api, { name: 'egHex', type: 'ruleid', ruleid: 'to_eg', payload_encode: 'hex', start_at: EARLIER() })
    const [line] = rendered(await published('eg', ['hi']))
    expect(line).toMatch(new RegExp(PREFIX + String.raw`action_id: action:mqtt:eg:connector:mqtt:eg, client_ids: \[tr-eg: true\], result: \[payload: got hi, payload_encode: text, props: \[User-Property: \[\]\], qos: 1, retain: false, topic: fwd/tr/eg/0\], `))
    const [hex] = rendered(await logContaining(api, 'egHex', 'action_template_rendered'))
    expect(hex).toContain(`result: [payload: ${Buffer.from('got hi').toString('hex').toUpperCase()}, payload_encode: hex, `)
  })
})
