// EMQX 5.8's whole-config endpoints against the real embedded server: GET /configs as HOCON text
// (or the legacy JSON), PUT /configs applying HOCON live (checked with real mqtt.js clients) or
// refusing it whole, POST /configs_reset/{root}, and /configs/dashboard, /configs/broker and
// /configs/limiter with what the embedded server implements applied and the rest kept.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BROKER_KEPT, configsErrors } from '../contract/configs.ts'
import { parseHocon } from '../server/areas/configs/hocon.ts'
import { expectContractError } from './support/contract.ts'
import { endClients, login, waitFor, startTestServer, subackCodes, type Api, type TestServer } from './support/server.ts'

let ts: TestServer
let api: Api

beforeAll(async () => {
  ts = await startTestServer()
  api = await ts.login()
})
afterEach(() => endClients())
afterAll(() => ts.close())

const auth = () => ({ authorization: `Bearer ${api.token}` })
const getText = (query = '', accept?: string) => ts.raw(`/configs${query}`, { headers: { ...auth(), ...(accept ? { accept } : {}) } })
const putText = (text: string, query = '') =>
  ts.raw(`/configs${query}`, { method: 'PUT', headers: { ...auth(), 'content-type': 'text/plain' }, body: text })

describe('GET /configs', () => {
  it('answers the whole config as HOCON text by default, without the hidden broker root', async () => {
    const response = await fetch(`${ts.url}/api/v5/configs`, { headers: auth() })
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    const text = await response.text()
    expect(text).toMatch(/^mqtt \{\n {2}max_packet_size = 1MB\n/)
    expect(text).toContain('sys_topics {')
    expect(text).not.toMatch(/^broker \{/m)
    const conf = parseHocon(text)
    expect(Object.keys(conf)).toEqual(expect.arrayContaining(['mqtt', 'flapping_detect', 'force_shutdown', 'sys_topics', 'alarm', 'sysmon', 'log', 'dashboard', 'retainer', 'delayed']))
    expect((conf.mqtt as Record<string, unknown>).max_topic_levels).toBe(128)
    expect((conf.dashboard as Record<string, unknown>).default_password).toBe('******')

    // What it answers goes back unchanged.
    expect((await putText(text)).status).toBe(200)
    expect(await (await fetch(`${ts.url}/api/v5/configs`, { headers: auth() })).text()).toBe(text)
  })

  it('answers one root by key, the legacy JSON on Accept: application/json, and refuses what 5.8 refuses', async () => {
    const one = await getText('?key=sys_topics')
    expect(Object.keys(parseHocon(one.body as string))).toEqual(['sys_topics'])
    expect((await getText('?key=nope')).status).toBe(400)

    const json = await getText('', 'application/json')
    expect(Object.keys(json.body)).toEqual(['dashboard', 'alarm', 'sys_topics', 'sysmon', 'log', 'broker'])
    expect(json.body.broker).toEqual(BROKER_KEPT)

    expectContractError(await getText('', 'image/png'), configsErrors.invalidAccept)
    expectContractError(await getText('?node=emqx@elsewhere', 'application/json'), configsErrors.notFound)
  })
})

describe('PUT /configs', () => {
  it('applies HOCON at once: a lower max_topic_levels refuses a deeper subscription', async () => {
    expect((await putText('mqtt {\n  max_topic_levels = 2 # fewer\n}\nsys_topics.sys_msg_interval = 2m')).status).toBe(200)
    const client = await ts.connect({ clientId: 'hocon-levels', protocolVersion: 5 })
    expect(await subackCodes(client, ['a/b/c', 'a/b'])).toEqual([0x8f, 0])
    expect((await api.get('/configs/sys_topics')).body.sys_msg_interval).toBe('2m')
    expect((await putText('mqtt.max_topic_levels = 128')).status).toBe(200)
  })

  it('changes nothing when one root is wrong, unknown or not implemented, and says which in text/plain', async () => {
    const before = await getText()
    const response = await fetch(`${ts.url}/api/v5/configs`, {
      method: 'PUT',
      headers: { ...auth(), 'content-type': 'text/plain' },
      body: 'sys_topics { sys_msg_interval = 5m }\nmqtt { max_inflight = 0 }\nforce_gc { enable = false }\nexhook {}',
    })
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    const { errors } = JSON.parse(await response.text())
    expect(Object.keys(errors).sort()).toEqual(['exhook', 'force_gc', 'mqtt'])
    expect(errors.force_gc).toMatch(/not implemented by the embedded broker/)
    expect((await getText()).body).toBe(before.body)
  })

  it('replace mode starts the root from its defaults; read-only roots are refused unless ignored; bad HOCON names its line', async () => {
    await putText('sys_topics { sys_msg_interval = 3m, sys_event_messages { client_subscribed = true } }')
    expect((await putText('sys_topics { sys_heartbeat_interval = 10s }', '?mode=replace')).status).toBe(200)
    expect((await api.get('/configs/sys_topics')).body).toEqual({
      sys_msg_interval: '1m',
      sys_heartbeat_interval: '10s',
      sys_event_messages: { client_connected: true, client_disconnected: true, client_subscribed: false, client_unsubscribed: false },
    })

    const readonly = await putText('node { name = "x@y" }\nsys_topics.sys_heartbeat_interval = 30s')
    expect(readonly).toMatchObject({ status: 400, body: { errors: "Cannot update read-only key 'node'." } })
    expect((await api.get('/configs/sys_topics')).body.sys_heartbeat_interval).toBe('10s')
    expect((await putText('node { name = "x@y" }\nsys_topics.sys_heartbeat_interval = 30s', '?ignore_readonly=true')).status).toBe(200)
    expect((await api.get('/configs/sys_topics')).body.sys_heartbeat_interval).toBe('30s')

    expect(await putText('mqtt {\n  max_inflight = ${X}\n}')).toMatchObject({ status: 400, body: { errors: { type: 'parse_error', line: 2 } } })
    expect((await putText('x = 1', '?mode=sideways')).status).toBe(400)
  })
})

describe('PUT /configs with the rewrite and auto_subscribe lists', () => {
  it('rewrites a publish and subscribes a connecting client, as the lists say', async () => {
    const text = `rewrite = [{action = publish, source_topic = "old/#", re = "^old/(.+)$", dest_topic = "new/$1"}]
auto_subscribe { topics = [{topic = "new/\${clientid}", qos = 1}] }`
    expect((await putText(text)).status).toBe(200)
    const conf = parseHocon((await getText()).body as string)
    expect(conf.rewrite).toEqual([{ action: 'publish', source_topic: 'old/#', re: '^old/(.+)$', dest_topic: 'new/$1' }])

    const client = await ts.connect({ clientId: 'hocon-auto', protocolVersion: 5 })
    const message = new Promise<string>((resolve) => client.once('message', (topic) => resolve(topic)))
    await waitFor(async () => (await api.get('/clients/hocon-auto/subscriptions')).body.length === 1, 'the auto-subscription')
    const publisher = await ts.connect({ clientId: 'hocon-pub' })
    await publisher.publishAsync('old/hocon-auto', 'x', { qos: 1 })
    expect(await message).toBe('new/hocon-auto')
    expect((await api.get('/mqtt/auto_subscribe')).body).toEqual([{ topic: 'new/${clientid}', qos: 1, rh: 0, rap: 0, nl: 0 }])

    // An empty auto_subscribe root in merge mode keeps the topics; a bad rule changes neither list.
    expect((await putText('auto_subscribe {}')).status).toBe(200)
    expect((await putText('rewrite = [{action = publish, source_topic = "a/#", re = "(", dest_topic = x}]\nauto_subscribe.topics = []')).status).toBe(400)
    expect((await api.get('/mqtt/auto_subscribe')).body).toHaveLength(1)
    expect((await putText('rewrite = []\nauto_subscribe.topics = []')).status).toBe(200)
  })
})

describe('POST /configs_reset/{root}', () => {
  it('resets a root or one path below it to EMQX defaults', async () => {
    await putText('sys_topics { sys_msg_interval = 7m, sys_heartbeat_interval = 7s }\nalarm.size_limit = 50')
    expect((await api.post('/configs_reset/sys_topics?conf_path=sys_msg_interval')).status).toBe(200)
    expect((await api.get('/configs/sys_topics')).body).toMatchObject({ sys_msg_interval: '1m', sys_heartbeat_interval: '7s' })
    expect((await api.post('/configs_reset/sys_topics')).status).toBe(200)
    expect((await api.get('/configs/sys_topics')).body.sys_heartbeat_interval).toBe('30s')
    expect((await api.post('/configs_reset/alarm')).status).toBe(200)
    expect((await api.get('/configs/alarm')).body.size_limit).toBe(1000)
    await putText('log.console.level = debug')
    expect((await api.get('/configs/log')).body.console.level).toBe('debug')
    expect((await api.post('/configs_reset/log?conf_path=console.level')).status).toBe(200)
    expect((await api.get('/configs/log')).body.console.level).toBe('warning')

    expectContractError(await api.post('/configs_reset/sys_topics?conf_path=nothing.here'), configsErrors.noDefaultValue)
    expect((await api.post('/configs_reset/mqtt')).status).toBe(400)
  })
})

describe('/configs/dashboard, /configs/broker, /configs/limiter', () => {
  it('dashboard: token_expired_time applies to logins at once; the rest is kept', async () => {
    const before = (await api.get('/configs/dashboard')).body
    expect(before).toMatchObject({ default_username: 'admin', default_password: '******', token_expired_time: '60m', sample_interval: '10s', cors: false })
    expect(before.listeners.http.bind).toBe(Number(new URL(ts.url).port))

    const refused = await api.request('PUT', '/configs/dashboard', { cors: true })
    expect(refused.status).toBe(400)
    expect((await api.get('/configs/dashboard')).body).toEqual(before)

    expect((await api.request('PUT', '/configs/dashboard', { token_expired_time: '1s' })).body.token_expired_time).toBe('1s')
    const short = await login(ts.url)
    await new Promise((resolve) => setTimeout(resolve, 1300))
    expect((await short.get('/configs/dashboard')).status).toBe(401)
    api = await ts.login()
    expect((await api.request('PUT', '/configs/dashboard', { token_expired_time: '2h' })).status).toBe(200)

    // It survives a restart, on whatever port the server then listens.
    await ts.close({ keepData: true })
    ts = await startTestServer({ dataDir: ts.dataDir })
    api = await ts.login()
    expect((await api.get('/configs/dashboard')).body).toMatchObject({ token_expired_time: '2h', listeners: { http: { bind: Number(new URL(ts.url).port) } } })
    // What was read on the old port is not what is in force now: its listener is refused.
    expect((await api.request('PUT', '/configs/dashboard', before)).status).toBe(400)
    expect((await api.request('PUT', '/configs/dashboard', { token_expired_time: '60m' })).body.token_expired_time).toBe('60m')
  })

  it('broker and limiter: shown at EMQX defaults, accepted unchanged, refused when changed', async () => {
    expect((await api.get('/configs/broker')).body).toEqual(BROKER_KEPT)
    expect((await api.request('PUT', '/configs/broker', BROKER_KEPT)).status).toBe(200)
    const broker = await api.request('PUT', '/configs/broker', { session_history_retain: '1h' })
    expect(broker).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } })

    expect((await api.get('/configs/limiter')).body).toEqual({ max_conn_rate: 'infinity' })
    expect((await api.request('PUT', '/configs/limiter', { max_conn_rate: 'infinity' })).status).toBe(200)
    expect((await api.request('PUT', '/configs/limiter', { messages_rate: '1000/s' })).status).toBe(400)
  })
})

describe('PUT /configs with the rule_engine root', () => {
  it('shows the rules and settings, merges rules it names into force, refuses a bad SQL whole, and replace removes the rest', async () => {
    expect((await api.post('/rules', { id: 'kept', sql: 'SELECT * FROM "kept/#"' })).status).toBe(201)
    const shown = parseHocon((await getText('?key=rule_engine')).body as string).rule_engine as Record<string, Record<string, Record<string, unknown>>>
    expect(shown.rules.kept).toMatchObject({ sql: 'SELECT * FROM "kept/#"' })
    expect(shown.ignore_sys_message).toBe(true)

    const added = 'rule_engine { rules { hot { sql = "SELECT payload.t AS t FROM \\"hot/#\\" WHERE t > 30", actions = [{function = republish, args = {topic = "alerts/hot", payload = "${t}"}}] } } }'
    expect((await putText(added)).status).toBe(200)
    expect((await api.get('/rules')).body.data.map((rule: { id: string }) => rule.id).sort()).toEqual(['hot', 'kept'])
    const subscriber = await ts.connect({ clientId: 'hocon-rule-sub' })
    await subscriber.subscribeAsync('alerts/hot', { qos: 1 })
    const received = new Promise<string>((resolve) => subscriber.once('message', (_topic, payload) => resolve(payload.toString())))
    const publisher = await ts.connect({ clientId: 'hocon-rule-pub' })
    await publisher.publishAsync('hot/1', JSON.stringify({ t: 35 }), { qos: 1 })
    expect(await received).toBe('35')

    const before = await getText('?key=rule_engine')
    expect((await putText('rule_engine { rules { broken { sql = "SELECT FROM WHERE" } } }')).status).toBe(400)
    expect((await getText('?key=rule_engine')).body).toBe(before.body)

    expect((await putText('rule_engine { rules { kept { sql = "SELECT * FROM \\"kept/#\\"" } } }', '?mode=replace')).status).toBe(200)
    expect((await api.get('/rules')).body.data.map((rule: { id: string }) => rule.id)).toEqual(['kept'])
    expect((await api.get('/rules/hot')).status).toBe(404)
  })
})
