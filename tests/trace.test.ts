// Log traces against the real server with real mqtt.js clients: each trace type writes what it
// should and nothing else, in 5.8's wording; reconnects are followed; the log pages by position;
// the download is a zip of the file; stop, delete, delete all; the clock moves the status.
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { serverPerSuite, waitFor } from './support/server.ts'
import { createTrace as createTraceWith, inMinutes, logContaining as logContainingWith, readLog as readLogWith } from './support/trace-log.ts'

const suite = serverPerSuite()

const createTrace = (body: Record<string, unknown>) => createTraceWith(suite.api, body)
const readLog = (name: string, bytes?: number) => readLogWith(suite.api, name, bytes)
const logContaining = (name: string, ...needles: string[]) => logContainingWith(suite.api, name, ...needles)

describe('log trace', () => {
  it('a client id trace writes that client’s connect, authentication, subscribe, publish, acks and disconnect, and follows it across a reconnect', async () => {
    await createTrace({ name: 'byClient', type: 'clientid', clientid: 'traced-1' })
    const other = await suite.t.connect({ clientId: 'untraced-1' })
    const client = await suite.t.connect({ clientId: 'traced-1', protocolVersion: 5 })
    await client.subscribeAsync('tr/a', { qos: 1 })
    await client.publishAsync('tr/a', 'hello-1', { qos: 1 })
    const delivered = new Promise<void>((resolve) => client.on('message', (_topic, payload) => payload.toString() === 'from-other' && resolve()))
    await other.publishAsync('tr/a', 'from-other', { qos: 0 })
    await delivered
    await client.endAsync()
    const again = await suite.t.connect({ clientId: 'traced-1' })
    await again.publishAsync('tr/b', 'hello-2', { qos: 2 })
    const text = await logContaining('byClient', 'hello-2', 'PUBCOMP')
    const lines = text.trim().split('\n')
    // A ?TRACE line (`[TAG] clientid@peer msg: ...`) or one of the client's own log lines (`[level] tag: ..., clientid: ...`).
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}[+-]\d\d:\d\d (\[[A-Z]+\] traced-1@127\.0\.0\.1:\d+ msg: |\[(debug|info|warning)\] tag: [A-Z]+, clientid: traced-1, msg: )/)
    expect(text).toMatch(/\[MQTT\] traced-1@127\.0\.0\.1:\d+ msg: mqtt_packet_received, packet: CONNECT\(Q0, R0, D0, ClientId=traced-1, ProtoName=MQTT, ProtoVsn=5, CleanStart=true, KeepAlive=60, Username=undefined, Password=\)/)
    expect(text).toContain('msg: authentication_result, reason: no_chain, result: ignore')
    expect(text).toContain('msg: mqtt_packet_sent, packet: CONNACK(Q0, R0, D0, AckFlags=0, ReasonCode=0)')
    expect(text).toMatch(/msg: mqtt_packet_received, packet: SUBSCRIBE\(Q1, R0, D0, PacketId=\d+ TopicFilters=\[tr\/a\(#\{nl => 0,qos => 1,rap => 0,rh => 0\}\)\]\)/)
    expect(text).toMatch(/\[AUTHZ\] .* msg: authorization_module_ignore, action: SUBSCRIBE\(Q1\), authorize_type: client_info, module: emqx_authz_client_info, topic: tr\/a/)
    expect(text).toMatch(/\[debug\] tag: AUTHZ, clientid: traced-1, msg: authorization_permission_allowed, peername: 127\.0\.0\.1:\d+, topic: tr\/a, action: SUBSCRIBE\(Q1\), source: /)
    expect(text).toContain('[SUBSCRIBE] traced-1@')
    expect(text).toContain('msg: subscribe, sub_id: traced-1, sub_opts: [nl: 0, qos: 1, rap: 0, rh: 0], topic: tr/a')
    expect(text).toMatch(/mqtt_packet_received, packet: PUBLISH\(Q1, R0, D0, Topic=tr\/a, PacketId=\d+, Payload\(text\)=hello-1\)/)
    expect(text).toContain('msg: publish_to, payload_encode: text, topic: tr/a, payload: hello-1')
    expect(text).toMatch(/msg: mqtt_packet_sent, packet: PUBACK\(Q0, R0, D0, PacketId=\d+, ReasonCode=0\)/)
    // Delivered out: the message it subscribed to, and the other client's message, sent to it.
    expect(text).toMatch(/mqtt_packet_sent, packet: PUBLISH\(Q1, R0, D0, Topic=tr\/a, PacketId=\d+, Payload\(text\)=hello-1\)/)
    expect(text).toMatch(/mqtt_packet_sent, packet: PUBLISH\(Q0, R0, D0, Topic=tr\/a, PacketId=undefined, Payload\(text\)=from-other\)/)
    expect(text).toContain('packet: DISCONNECT(Q0, R0, D0, ReasonCode=0)')
    expect(text).toMatch(/\[SOCKET\] traced-1@.* msg: emqx_connection_terminated, reason: normal/)
    // The second connection (MQTT 3.1.1) is followed: its QoS 2 exchange.
    expect(text).toContain('ProtoVsn=4')
    for (const kind of ['PUBREC', 'PUBREL', 'PUBCOMP']) expect(text).toContain(`packet: ${kind}(`)
    expect(text).not.toContain('untraced-1')
    expect(text.match(/publish_to.*from-other/)).toBeNull()
  })

  it('a topic trace writes the events about matching topics only; an address trace the events of its peers', async () => {
    await createTrace({ name: 'byTopic', type: 'topic', topic: 'tt/+/x' })
    await createTrace({ name: 'byAddress', type: 'ip_address', ip_address: '127.0.0.1' })
    await createTrace({ name: 'byOtherAddress', type: 'ip_address', ip_address: '10.1.2.3' })
    const client = await suite.t.connect({ clientId: 'topic-tracer' })
    await client.subscribeAsync('tt/1/x')
    await client.subscribeAsync('tt/1/y')
    await client.publishAsync('tt/2/x', 'matching', { qos: 1 })
    await client.publishAsync('tt/2/y', 'not-matching', { qos: 1 })
    await client.unsubscribeAsync('tt/1/x')
    const text = await logContaining('byTopic', 'matching', 'unsubscribe')
    expect(text).toMatch(/\[PUBLISH\] topic-tracer@127\.0\.0\.1:\d+ msg: publish_to, payload_encode: text, topic: tt\/2\/x, payload: matching\n/)
    expect(text).toContain('msg: subscribe, sub_id: topic-tracer, sub_opts: [nl: 0, qos: 0, rap: 0, rh: 0], topic: tt/1/x')
    expect(text).toContain('[UNSUBSCRIBE] topic-tracer@')
    expect(text).not.toContain('not-matching')
    expect(text).not.toContain('tt/1/y')
    // Packets carry no topic of their own: a topic trace has none.
    expect(text).not.toContain('mqtt_packet_received')
    const byAddress = await logContaining('byAddress', 'not-matching', 'CONNACK')
    expect(byAddress).toContain('topic-tracer@127.0.0.1:')
    expect(await readLog('byOtherAddress')).toBe('')
  })

  it('payload_encode hex and hidden, and the json formatter', async () => {
    await createTrace({ name: 'hexed', type: 'clientid', clientid: 'enc-1', payload_encode: 'hex' })
    await createTrace({ name: 'hidden', type: 'clientid', clientid: 'enc-1', payload_encode: 'hidden', start_at: Math.floor(Date.now() / 1000) - 1 })
    await createTrace({ name: 'jsoned', type: 'topic', topic: 'enc/#', formatter: 'json' })
    const client = await suite.t.connect({ clientId: 'enc-1' })
    await client.publishAsync('enc/1', 'AB', { qos: 1 })
    await client.publishAsync('enc/1', Buffer.from([0xff, 0x00]), { qos: 1 })
    expect(await logContaining('hexed', 'Payload(hex)=4142', 'payload_encode: hex, topic: enc/1, payload: 4142', 'payload: FF00')).toBeTruthy()
    const hidden = await logContaining('hidden', 'Payload(hidden)=******')
    expect(hidden).not.toContain('AB')
    const json = await logContaining('jsoned', '"publish_to"')
    const entries = json.trim().split('\n').map((line) => JSON.parse(line))
    const published = entries.find((entry) => entry.msg === 'publish_to' && entry.meta.payload === 'AB')
    expect(published).toMatchObject({ level: 'debug', msg: 'publish_to', meta: { clientid: 'enc-1', trace_tag: 'PUBLISH', topic: 'enc/1', payload_encode: 'text' } })
    expect(published.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}/)
    // Not UTF-8: text falls back to hex, as emqx_packet:format_payload/2 does.
    expect(entries.some((entry) => entry.meta.payload === 'FF00' && entry.meta.payload_encode === 'hex')).toBe(true)
  })

  it('a rule id trace writes that rule’s runs and its actions’ results, not another rule’s', async () => {
    expect((await suite.api.post('/rules', { id: 'traced_rule', sql: 'SELECT payload.n as n FROM "rt/#" WHERE payload.n > 1', actions: [{ function: 'republish', args: { topic: 'rt-out/${n}', payload: '${n}' } }] })).status).toBe(201)
    expect((await suite.api.post('/rules', { id: 'other_rule', sql: 'SELECT * FROM "rt/#"' })).status).toBe(201)
    await createTrace({ name: 'byRule', type: 'ruleid', ruleid: 'traced_rule' })
    const client = await suite.t.connect({ clientId: 'rule-pub' })
    await client.publishAsync('rt/1', JSON.stringify({ n: 1 }), { qos: 1 })
    await client.publishAsync('rt/1', JSON.stringify({ n: 5 }), { qos: 1 })
    const text = await logContaining('byRule', 'action_success')
    expect(text).toMatch(/\[RULE_SQL_EXEC\] rule-pub@127\.0\.0\.1:\d+ msg: rule_activated, input: \[/)
    expect(text).toMatch(/\[RULE_SQL_EXEC\] rule-pub@127\.0\.0\.1:\d+ msg: SQL_yielded_no_result, rule_id: traced_rule, rule_trigger_ts: \[\d+\]\n/)
    expect(text).toContain('msg: SQL_yielded_result, result: [n: 5], rule_id: traced_rule, rule_trigger_ts: [')
    expect(text).toMatch(/\[ACTION\] rule-pub@127\.0\.0\.1:\d+ msg: call_action_function, action_info: \[func: republish, mod: emqx_rule_actions\], rule_id: traced_rule, rule_trigger_ts: \[\d+\]\n/)
    expect(text).toMatch(/\[ACTION\] rule-pub@127\.0\.0\.1:\d+ msg: action_success, action_info: \[func: republish, mod: emqx_rule_actions\], result: ok, rule_id: traced_rule, rule_trigger_ts: \[\d+\]\n/)
    expect(text).not.toContain('other_rule')
    expect(text).not.toContain('mqtt_packet')
    await suite.api.delete('/rules/traced_rule')
    await suite.api.delete('/rules/other_rule')
  })

  it('drops are written with their reason', async () => {
    await createTrace({ name: 'drops', type: 'topic', topic: 'nobody/#' })
    const client = await suite.t.connect({ clientId: 'dropper' })
    await client.publishAsync('nobody/here', 'lost', { qos: 1 })
    const text = await logContaining('drops', 'message_dropped')
    expect(text).toContain('msg: message_dropped, payload_encode: text, reason: no_subscribers, topic: nobody/here, payload: lost')
    // A No Local subscriber is not sent its own message: a delivery dropped, in its own client's trace.
    await createTrace({ name: 'ownDrop', type: 'clientid', clientid: 'no-local' })
    const self = await suite.t.connect({ clientId: 'no-local', protocolVersion: 5 })
    await self.subscribeAsync('nl/t', { qos: 0, nl: true })
    await self.publishAsync('nl/t', 'to-myself', { qos: 1 })
    const own = await logContaining('ownDrop', 'delivery_dropped')
    expect(own).toMatch(/\[MQTT\] no-local@127\.0\.0\.1:\d+ msg: delivery_dropped, from: no-local, payload_encode: text, reason: no_local, topic: nl\/t, payload: to-myself\n/)
  })

  it('a rule trace writes an action that is not there as discarded, and a failing SQL by its clause', async () => {
    expect((await suite.api.post('/rules', { id: 'missing_action', sql: 'SELECT * FROM "ma/#"', actions: ['mqtt:nowhere'] })).status).toBe(201)
    expect((await suite.api.post('/rules', { id: 'failing_sql', sql: 'SELECT nth(5, payload.list) as x FROM "ma/#"' })).status).toBe(201)
    await createTrace({ name: 'missing', type: 'ruleid', ruleid: 'missing_action' })
    await createTrace({ name: 'failing', type: 'ruleid', ruleid: 'failing_sql' })
    const client = await suite.t.connect({ clientId: 'rule-fail' })
    await client.publishAsync('ma/1', JSON.stringify({ list: [1] }), { qos: 1 })
    expect(await logContaining('missing', 'discarded')).toMatch(/\[ACTION\] rule-fail@127\.0\.0\.1:\d+ msg: discarded, action_info: \[name: nowhere, type: mqtt\], cause: bridge_not_found, rule_id: missing_action, rule_trigger_ts: \[\d+\]\n/)
    expect(await logContaining('failing', 'clause_exception')).toMatch(/\[RULE_SQL_EXEC\] rule-fail@127\.0\.0\.1:\d+ msg: SELECT_clause_exception, reason: .+, rule_id: failing_sql, rule_trigger_ts: \[\d+\]\n/)
    await suite.api.delete('/rules/missing_action')
    await suite.api.delete('/rules/failing_sql')
  })

  it('paging by position reads the file exactly once, and the download is a zip of it', async () => {
    await createTrace({ name: 'paged', type: 'clientid', clientid: 'pager' })
    const client = await suite.t.connect({ clientId: 'pager' })
    for (let i = 0; i < 30; i++) await client.publishAsync('pg/t', `message-${i}`, { qos: 1 })
    await logContaining('paged', 'message-29')
    const whole = await readLog('paged')
    expect(await readLog('paged', 37)).toBe(whole)
    const end = await suite.api.get(`/trace/paged/log?position=${Buffer.byteLength(whole)}&bytes=10`)
    expect(end.body).toEqual({ items: '', meta: { position: Buffer.byteLength(whole), bytes: 10 } })
    const detail = await suite.api.get('/trace/paged/log_detail')
    expect(detail.body).toEqual([{ node: 'emqx@127.0.0.1', size: Buffer.byteLength(whole), mtime: expect.any(Number) }])
    const listed = (await suite.api.get('/trace')).body.find((trace: { name: string }) => trace.name === 'paged')
    expect(listed.log_size).toEqual({ 'emqx@127.0.0.1': Buffer.byteLength(whole) })

    const response = await fetch(`${suite.t.url}/api/v5/trace/paged/download`, { headers: { authorization: `Bearer ${suite.api.token}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/x-zip')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename=paged.zip')
    const zipPath = join(suite.t.dataDir, 'paged-test.zip')
    writeFileSync(zipPath, Buffer.from(await response.arrayBuffer()))
    const listing = spawnSync('unzip', ['-Z1', zipPath], { encoding: 'utf8' })
    const day = new Date()
    const date = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`
    expect(listing.stdout.trim()).toBe(`emqx@127.0.0.1-trace_paged_${date}.log`)
    const unzipped = spawnSync('unzip', ['-p', zipPath], { encoding: 'utf8' })
    expect(unzipped.status).toBe(0)
    expect(unzipped.stdout.startsWith(whole)).toBe(true)

    expect((await suite.api.get('/trace/paged/download?node=emqx@elsewhere')).body).toEqual({ code: 'NOT_FOUND', message: 'Node NOT FOUND' })
    await createTrace({ name: 'quiet', type: 'clientid', clientid: 'never-connects' })
    expect(await suite.api.get('/trace/quiet/download')).toEqual({ status: 404, body: { code: 'NOT_FOUND', message: 'Trace is empty' } })
    expect((await suite.api.get('/trace/quiet/log')).body).toEqual({ items: '', meta: { position: 0, bytes: 1000 } })
  })

  it('stop, delete one, delete all', async () => {
    await createTrace({ name: 'stopMe', type: 'clientid', clientid: 'stopper' })
    const stopped = await suite.api.request('PUT', '/trace/stopMe/stop')
    expect(stopped).toEqual({ status: 200, body: { enable: false, name: 'stopMe' } })
    const client = await suite.t.connect({ clientId: 'stopper' })
    await client.publishAsync('st/t', 'after-stop', { qos: 1 })
    expect(await readLog('stopMe')).toBe('')
    expect((await suite.api.get('/trace')).body.find((trace: { name: string }) => trace.name === 'stopMe').status).toBe('stopped')
    expect(await suite.api.delete('/trace/stopMe')).toEqual({ status: 204, body: undefined })
    expect(await suite.api.delete('/trace/stopMe')).toEqual({ status: 404, body: { code: 'NOT_FOUND', message: 'stopMe NOT FOUND' } })
    expect((await suite.api.request('PUT', '/trace/stopMe/stop')).status).toBe(404)
    expect((await suite.api.get('/trace/stopMe/log')).status).toBe(404)
    expect(await suite.api.delete('/trace')).toEqual({ status: 204, body: undefined })
    expect((await suite.api.get('/trace')).body).toEqual([])
  })

  it('start and end times move the status: waiting, running, stopped', async () => {
    const startAt = Math.ceil(Date.now() / 1000) + 2
    await createTrace({ name: 'timed', type: 'clientid', clientid: 'timed-client', start_at: startAt, end_at: startAt + 2 })
    const status = async () => (await suite.api.get('/trace')).body.find((trace: { name: string }) => trace.name === 'timed').status
    expect(await status()).toBe('waiting')
    const client = await suite.t.connect({ clientId: 'timed-client' })
    await client.publishAsync('tm/t', 'before', { qos: 1 })
    await waitFor(async () => (await status()) === 'running', 'running', 5000)
    await client.publishAsync('tm/t', 'during', { qos: 1 })
    await waitFor(async () => (await status()) === 'stopped', 'stopped', 5000)
    await client.publishAsync('tm/t', 'after', { qos: 1 })
    const text = await readLog('timed')
    expect(text).toContain('during')
    expect(text).not.toContain('Payload(text)=before')
    expect(text).not.toContain('Payload(text)=after')
    await suite.api.delete('/trace')
  }, 15_000)

  it('answers bad input as 5.8 does and changes nothing', async () => {
    const base = { name: 'valid', type: 'clientid', clientid: 'c' }
    const post = (body: Record<string, unknown>) => suite.api.post('/trace', body)
    expect(await post({ ...base, name: '1bad' })).toEqual({ status: 400, body: { code: 'BAD_REQUEST', message: 'body name: Name should be ^[A-Za-z]+[A-Za-z0-9-_]*$' } })
    expect((await post({ ...base, name: 'a'.repeat(257) })).body.message).toContain('Name Length must =< 256')
    expect((await post({ ...base, type: 'username' })).body.code).toBe('BAD_REQUEST')
    expect(await post({ name: 'noFilter', type: 'topic' })).toEqual({ status: 400, body: { code: 'INVALID_PARAMS', message: 'required topic field' } })
    expect(await post({ name: 'badTopic', type: 'topic', topic: 'a/#/b' })).toEqual({ status: 400, body: { code: 'INVALID_PARAMS', message: "topic: a/#/b invalid by 'topic_invalid_#'" } })
    expect(await post({ name: 'badIp', type: 'ip_address', ip_address: '300.1.1.1' })).toEqual({ status: 400, body: { code: 'INVALID_PARAMS', message: 'ip address: einval' } })
    expect(await post({ ...base, end_at: new Date(Date.now() - 60_000).toISOString() })).toEqual({ status: 400, body: { code: 'INVALID_PARAMS', message: 'end_at time has already passed' } })
    expect(await post({ ...base, start_at: inMinutes(20), end_at: inMinutes(10) })).toEqual({ status: 400, body: { code: 'INVALID_PARAMS', message: 'failed by start_at >= end_at' } })
    expect((await post({ ...base, payload_encode: 'base64' })).body.code).toBe('BAD_REQUEST')
    expect((await post({ ...base, formatter: 'xml' })).body.code).toBe('BAD_REQUEST')
    expect((await suite.api.get('/trace/x/log?bytes=-1')).body.code).toBe('BAD_REQUEST')
    expect((await suite.api.get('/trace')).body).toEqual([])

    const start = Math.floor(Date.now() / 1000)
    const created = await post({ ...base, start_at: start })
    expect(created.body).toMatchObject({ name: 'valid', type: 'clientid', clientid: 'c', payload_encode: 'text', formatter: 'text', status: 'running', log_size: { 'emqx@127.0.0.1': 0 } })
    // 5.8 answers the start as end_at; the list shows the default end, ten minutes on.
    expect(created.body.end_at).toBe(created.body.start_at)
    const listed = (await suite.api.get('/trace')).body[0]
    expect(Date.parse(listed.end_at) - Date.parse(listed.start_at)).toBe(600_000)
    expect(listed.start_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/)
    expect(await post(base)).toEqual({ status: 409, body: { code: 'ALREADY_EXISTS', message: 'valid Already Exists' } })
    expect(await post({ ...base, name: 'same', start_at: start })).toEqual({ status: 409, body: { code: 'DUPLICATE_CONDITION', message: 'valid Duplication Condition' } })
    for (let i = 1; i < 30; i++) expect((await post({ name: `many${i}`, type: 'clientid', clientid: `m${i}` })).status).toBe(200)
    expect(await post({ name: 'tooMany', type: 'clientid', clientid: 'x' })).toEqual({
      status: 400,
      body: { code: 'INVALID_PARAMS', message: 'The number of traces created has reached the maximum please delete the useless ones first' },
    })
    await suite.api.delete('/trace')
  })
})
