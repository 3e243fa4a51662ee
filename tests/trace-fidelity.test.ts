// The trace writer against EMQX 5.8.9's own words: each line as 5.8 writes it for the same moment
// (the authorization lines with the rich action, the JSON formatter's keys, the drops, the client's
// own debug lines), and the log read answering 503 where 5.8 does. Real server, real mqtt.js
// clients, the file read through `/trace/{name}/log`.
import { truncateSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { traceFileName } from '../server/areas/trace/feature.ts'
import { traceKind } from '../src/features/logTrace/traceLineView.ts'
import { connectPacket, rawClient, serverPerSuite } from './support/server.ts'
import { createTrace as createTraceWith, logContaining as logContainingWith, readLog as readLogWith } from './support/trace-log.ts'

const suite = serverPerSuite()

const createTrace = (body: Record<string, unknown>) => createTraceWith(suite.api, body)
const readLog = (name: string, bytes?: number) => readLogWith(suite.api, name, bytes)
const logContaining = (name: string, ...needles: string[]) => logContainingWith(suite.api, name, ...needles)

const PEER = String.raw`127\.0\.0\.1:\d+`
const lines = (text: string, needle: string) => text.split('\n').filter((line) => line.includes(needle))

describe('trace fidelity to 5.8.9', () => {
  afterEach(async () => {
    for (const { type } of (await suite.api.get('/authorization/sources')).body.sources as Array<{ type: string }>) await suite.api.delete(`/authorization/sources/${type}`)
    await suite.api.request('PUT', '/authorization/settings', { no_match: 'allow', deny_action: 'ignore', cache: { enable: false, max_size: 32, ttl: '1m' } })
    for (const { id } of (await suite.api.get('/authentication')).body as Array<{ id: string }>) await suite.api.delete(`/authentication/${id}`)
    await suite.api.delete('/trace')
  })

  it('authorization: each source’s answer with the rich action, then the decision as 5.8’s log line; a cached answer writes nothing', async () => {
    const rules = '{deny, all, subscribe, ["az/hidden"]}.\n{deny, all, publish, ["az/secret"]}.\n{allow, all, all, ["az/open/#"]}.\n'
    expect((await suite.api.post('/authorization/sources', { type: 'file', rules })).status).toBe(204)
    expect((await suite.api.post('/authorization/sources', { type: 'built_in_database' })).status).toBe(204)
    await suite.api.request('PUT', '/authorization/settings', { no_match: 'allow', deny_action: 'ignore', cache: { enable: true, max_size: 32, ttl: '1m' } })
    await createTrace({ name: 'authzClient', type: 'clientid', clientid: 'az-1' })
    await createTrace({ name: 'authzTopic', type: 'topic', topic: 'az/#' })
    const client = await suite.t.connect({ clientId: 'az-1', username: 'azu', protocolVersion: 5 })
    await client.subscribeAsync('az/open/1', { qos: 1 })
    await expect(client.subscribeAsync('az/hidden', { qos: 0 })).rejects.toThrow('Not authorized')
    await expect(client.publishAsync('az/secret', 'no', { qos: 1, retain: true })).rejects.toThrow('Not authorized')
    await client.publishAsync('az/open/x', 'one', { qos: 0 })
    await client.publishAsync('az/open/x', 'two', { qos: 0 })
    const text = await logContaining('authzClient', 'two')
    const at = (msg: string) => new RegExp(String.raw`\[AUTHZ\] az-1@${PEER} msg: ${msg}, `)
    expect(text).toMatch(new RegExp(at('authorization_module_ignore').source + String.raw`action: SUBSCRIBE\(Q1\), authorize_type: client_info, module: emqx_authz_client_info, topic: az/open/1, username: azu\n`))
    expect(text).toMatch(new RegExp(at('authorization_nomatch').source + String.raw`action: SUBSCRIBE\(Q1\), authorize_type: built_in_database, module: emqx_authz_mnesia, topic: az/open/1, username: azu\n`))
    expect(text).toMatch(new RegExp(at('authorization_matched_allow').source + String.raw`action: SUBSCRIBE\(Q1\), authorize_type: file, module: emqx_authz_file, topic: az/open/1, username: azu\n`))
    expect(text).toMatch(new RegExp(String.raw`\[debug\] tag: AUTHZ, clientid: az-1, msg: authorization_permission_allowed, peername: ${PEER}, username: azu, topic: az/open/1, action: SUBSCRIBE\(Q1\), source: file\n`))
    expect(text).toMatch(new RegExp(at('authorization_matched_deny').source + String.raw`action: SUBSCRIBE\(Q0\), authorize_type: file, module: emqx_authz_file, topic: az/hidden, username: azu\n`))
    expect(text).toMatch(new RegExp(String.raw`\[warning\] tag: AUTHZ, clientid: az-1, msg: authorization_permission_denied, peername: ${PEER}, username: azu, topic: az/hidden, action: SUBSCRIBE\(Q0\), source: file\n`))
    expect(text).toMatch(new RegExp(String.raw`\[info\] tag: AUTHZ, clientid: az-1, msg: authorization_permission_denied, peername: ${PEER}, username: azu, topic: az/secret, action: PUBLISH\(Q1,R1\), source: file\n`))
    expect(text).toMatch(new RegExp(String.raw`\[warning\] tag: AUTHZ, clientid: az-1, msg: cannot_publish_to_topic_due_to_not_authorized, peername: ${PEER}, username: azu, topic: az/secret, reason: not_authorized\n`))
    // The console colours a log line by its tag, as a ?TRACE line.
    expect(traceKind(lines(text, 'authorization_permission_allowed')[0])).toBe('AUTHZ')
    // In 5.8's order: client_info, then the sources in theirs, then the decision.
    const order = ['authorization_module_ignore', 'authorization_nomatch', 'authorization_matched_allow', 'authorization_permission_allowed'].map((msg) => text.indexOf(`${msg}, `))
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    // The second publish to az/open/x is answered by the cache: no line of it.
    expect(lines(text, 'authorization_permission_allowed').filter((line) => line.includes('topic: az/open/x'))).toHaveLength(1)
    // A topic trace has the sources' lines (their topic is metadata), not the decision (its topic is in the report).
    const byTopic = await logContaining('authzTopic', 'authorization_matched_deny')
    expect(byTopic).toContain('msg: authorization_matched_allow, action: PUBLISH(Q0,R0), authorize_type: file')
    expect(byTopic).not.toContain('authorization_permission_')
    // The refusal of the PUBLISH has its topic as metadata: the topic trace has it.
    expect(byTopic).toContain('msg: cannot_publish_to_topic_due_to_not_authorized, peername: ')
  })

  it('authentication’s chain lines; a superuser’s authorization is skipped, and no source answering is the no_match config', async () => {
    expect((await suite.api.post('/authentication', { mechanism: 'password_based', backend: 'built_in_database' })).status).toBe(200)
    expect((await suite.api.post('/authentication/password_based:built_in_database/users', { user_id: 'root', password: 'pw', is_superuser: true })).status).toBe(201)
    expect((await suite.api.post('/authentication/password_based:built_in_database/users', { user_id: 'plain', password: 'pw' })).status).toBe(201)
    await createTrace({ name: 'authzRoot', type: 'clientid', clientid: 'az-root' })
    await createTrace({ name: 'authzPlain', type: 'clientid', clientid: 'az-plain' })
    await createTrace({ name: 'authzJson', type: 'clientid', clientid: 'az-root', formatter: 'json', start_at: Math.floor(Date.now() / 1000) - 5 })
    const root = await suite.t.connect({ clientId: 'az-root', username: 'root', password: 'pw' })
    await root.subscribeAsync('az/any', { qos: 2 })
    const text = await logContaining('authzRoot', 'authorization_permission_allowed')
    expect(text).toMatch(new RegExp(String.raw`\[AUTHZ\] az-root@${PEER} msg: authorization_skipped_as_superuser, action: SUBSCRIBE\(Q2\), topic: az/any, username: root\n`))
    expect(text).toMatch(new RegExp(String.raw`\[debug\] tag: AUTHZ, clientid: az-root, msg: authorization_permission_allowed, peername: ${PEER}, username: root, topic: az/any, action: SUBSCRIBE\(Q2\), source: superuser\n`))
    expect(text).not.toContain('client_info')
    // The chain's lines (emqx_authn_chains): each authenticator's answer, then the chain's.
    expect(text).toMatch(new RegExp(String.raw`\[AUTHN\] az-root@${PEER} msg: authenticator_result, authenticator: password_based:built_in_database, result: \{ok,#\{is_superuser => true\}\}, username: root\n[^\n]*\[AUTHN\] az-root@${PEER} msg: authentication_result, reason: chain_result, result: \{stop,\{ok,#\{is_superuser => true\}\}\}, username: root\n`))
    // The JSON formatter: a log line's level and its report's fields as meta.
    const entries = (await logContaining('authzJson', 'authorization_permission_allowed')).trim().split('\n').map((line) => JSON.parse(line))
    expect(entries.find((entry) => entry.msg === 'authorization_permission_allowed')).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: 'debug',
      msg: 'authorization_permission_allowed',
      meta: { tag: 'AUTHZ', clientid: 'az-root', peername: expect.stringMatching(/^127\.0\.0\.1:\d+$/), username: 'root', topic: 'az/any', action: 'SUBSCRIBE(Q2)', source: 'superuser' },
    })
    expect(entries.find((entry) => entry.msg === 'authorization_skipped_as_superuser').meta).toMatchObject({ trace_tag: 'AUTHZ', clientid: 'az-root', username: 'root', topic: 'az/any', action: 'SUBSCRIBE(Q2)' })
    await expect(suite.t.connect({ clientId: 'az-plain', username: 'plain', password: 'wrong' })).rejects.toThrow()
    const plain = await suite.t.connect({ clientId: 'az-plain', username: 'plain', password: 'pw' })
    await plain.publishAsync('az/p', 'x', { qos: 1 })
    const plainText = await logContaining('authzPlain', 'authorization_permission_allowed')
    expect(plainText).toContain("topic: az/p, action: PUBLISH(Q1,R0), source: 'authorization.no_match' config\n")
    expect(plainText).toContain('msg: authenticator_result, authenticator: password_based:built_in_database, result: {error,bad_username_or_password}, username: plain\n')
    expect(plainText).toContain('msg: authentication_result, reason: chain_result, result: {stop,{error,bad_username_or_password}}, username: plain\n')
  })

  it('rule and action lines: RULE_SQL_EXEC, the action as action_info in both formatters, the rule’s trigger time', async () => {
    expect((await suite.api.post('/rules', { id: 'fid_rule', sql: 'SELECT payload FROM "fr/#"', actions: ['mqtt:nowhere', { function: 'console' }] })).status).toBe(201)
    await createTrace({ name: 'ruleText', type: 'ruleid', ruleid: 'fid_rule' })
    await createTrace({ name: 'ruleJson', type: 'ruleid', ruleid: 'fid_rule', formatter: 'json', start_at: Math.floor(Date.now() / 1000) - 5 })
    const client = await suite.t.connect({ clientId: 'fid-pub' })
    await client.publishAsync('fr/1', 'hi', { qos: 1 })
    const text = await logContaining('ruleText', 'discarded', 'action_success')
    expect(text).toMatch(new RegExp(String.raw`\[RULE_SQL_EXEC\] fid-pub@${PEER} msg: SQL_yielded_result, result: \[payload: hi\], rule_id: fid_rule, rule_trigger_ts: \[\d+\]\n`))
    expect(text).toMatch(new RegExp(String.raw`\[BRIDGE\] fid-pub@${PEER} msg: bridge_action, action_info: \[name: nowhere, type: mqtt\], rule_id: fid_rule, rule_trigger_ts: \[\d+\]\n`))
    expect(text).toMatch(/msg: discarded, action_info: \[name: nowhere, type: mqtt\], cause: bridge_not_found, rule_id: fid_rule, /)
    expect(text).toMatch(/msg: call_action_function, action_info: \[func: console, mod: emqx_rule_actions\], rule_id: fid_rule, /)
    const entries = (await logContaining('ruleJson', 'action_success')).trim().split('\n').map((line) => JSON.parse(line))
    const discarded = entries.find((entry) => entry.msg === 'discarded')
    expect(discarded).toMatchObject({ level: 'debug', meta: { trace_tag: 'ACTION', clientid: 'fid-pub', rule_id: 'fid_rule', action_info: { type: 'mqtt', name: 'nowhere' }, cause: 'bridge_not_found' } })
    expect(discarded.meta.rule_trigger_ts).toEqual([expect.any(Number)])
    expect(entries.find((entry) => entry.msg === 'action_success').meta.action_info).toEqual({ mod: 'emqx_rule_actions', func: 'console' })
    expect(entries.some((entry) => 'action_id' in entry.meta)).toBe(false)
    await suite.api.delete('/rules/fid_rule')
  })

  it('drops in 5.8’s words: the queue full, a QoS 0 message not queued, a delivery too large, a publish a hook refused', async () => {
    const broker = suite.t.server.broker!
    await createTrace({ name: 'dropsSub', type: 'clientid', clientid: 'dr-sub' })
    await createTrace({ name: 'dropsSmall', type: 'clientid', clientid: 'dr-small' })
    await createTrace({ name: 'dropsPub', type: 'clientid', clientid: 'dr-pub' })
    broker.configure({ max_mqueue_len: 1, mqueue_store_qos0: false })
    try {
      const away = await suite.t.connect({ clientId: 'dr-sub', username: 'dru', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 300 } })
      await away.subscribeAsync('dr/#', { qos: 1 })
      await away.endAsync()
      const small = await suite.t.connect({ clientId: 'dr-small', protocolVersion: 5, properties: { maximumPacketSize: 64 } })
      await small.subscribeAsync('dr/big', { qos: 0 })
      const sender = await suite.t.connect({ clientId: 'dr-pub', protocolVersion: 5 })
      await sender.publishAsync('dr/1', 'first', { qos: 1 })
      await sender.publishAsync('dr/2', 'second', { qos: 1 })
      await sender.publishAsync('dr/3', 'zero', { qos: 0 })
      await sender.publishAsync('dr/big', 'x'.repeat(200), { qos: 0 })
      await sender.publishAsync('$delayed/soon/dr/4', 'bad delay', { qos: 1 })
      const sub = await logContaining('dropsSub', 'dropped_qos0_msg')
      // An offline session keeps its process in 5.8, and with it the peer in its log metadata.
      const queue = String.raw`queue: #\{dropped => 1,len => 1,max_len => 1,store_qos0 => false\}\n`
      expect(sub).toMatch(new RegExp(String.raw`\[warning\] clientid: dr-sub, msg: dropped_msg_due_to_mqueue_is_full, peername: ${PEER}, username: dru, topic: dr/1, payload: first, payload_encode: text, ` + queue))
      expect(sub).toMatch(new RegExp(String.raw`\[warning\] clientid: dr-sub, msg: dropped_qos0_msg, peername: ${PEER}, username: dru, topic: dr/3, payload: zero, payload_encode: text, ` + queue))
      const tooLarge = await logContaining('dropsSmall', 'packet_is_discarded')
      expect(tooLarge).toMatch(new RegExp(String.raw`\[warning\] tag: MQTT, clientid: dr-small, msg: packet_is_discarded, peername: ${PEER}, packet: PUBLISH\(Q0, R0, D0, Topic=dr/big, PacketId=undefined, Payload\(hidden\)=\*\*\*\*\*\*\), reason: frame_is_too_large\n`))
      // The delayed store full: 5.8's delayed module logs the failure, then refuses the publish on its real topic.
      expect((await suite.api.request('PUT', '/mqtt/delayed', { enable: true, max_delayed_messages: 1 })).status).toBe(200)
      await sender.publishAsync('$delayed/100/dr/5', 'kept', { qos: 1 })
      await sender.publishAsync('$delayed/100/dr/6', 'no room', { qos: 1 })
      const pub = await logContaining('dropsPub', 'msg_publish_not_allowed', 'store_delayed_message_fail')
      expect(pub).toMatch(new RegExp(String.raw`\[error\] clientid: dr-pub, msg: store_delayed_message_fail, peername: ${PEER}, error: max_delayed_messages_full\n[^\n]*\[MQTT\] dr-pub@${PEER} msg: msg_publish_not_allowed, message: \[[^\n]*topic: \$delayed/100/dr/6\], topic: dr/6\n`))
      expect(pub).toMatch(new RegExp(String.raw`\[MQTT\] dr-pub@${PEER} msg: msg_publish_not_allowed, message: \[extra: \[\], flags: \[dup: false, retain: false\], from: dr-pub, headers: \[peerhost: 127\.0\.0\.1\], id: [0-9a-f]{32}, qos: 1, timestamp: \d+, topic: \$delayed/soon/dr/4\], topic: \$delayed/soon/dr/4\n`))
    } finally {
      broker.configure({ max_mqueue_len: 1000, mqueue_store_qos0: true })
      await suite.api.request('PUT', '/mqtt/delayed', { enable: true, max_delayed_messages: 0 })
      for (const { node, msgid } of (await suite.api.get('/mqtt/delayed/messages')).body.data as Array<{ node: string; msgid: string }>) await suite.api.delete(`/mqtt/delayed/messages/${node}/${msgid}`)
      await (await suite.t.connect({ clientId: 'dr-sub', clean: true })).endAsync()
    }
  })

  it('the client’s own lines: its user name as log metadata after CONNECT, socket_force_closed where the server closes its socket', async () => {
    await createTrace({ name: 'ownLines', type: 'clientid', clientid: 'own-1' })
    await createTrace({ name: 'sleepy', type: 'clientid', clientid: 'own-sleepy' })
    await createTrace({ name: 'kicked', type: 'clientid', clientid: 'own-kicked' })
    const client = await suite.t.connect({ clientId: 'own-1', username: 'ownu', protocolVersion: 5 })
    await client.publishAsync('own/t', 'p', { qos: 0 })
    await client.subscribeAsync('$SYS/brokers/+/version')
    await client.endAsync()
    const text = await logContaining('ownLines', 'emqx_connection_terminated')
    expect(text).toMatch(/msg: mqtt_packet_received, packet: CONNECT\([^\n]*Username=ownu, Password=\)\n/)
    expect(text).toContain('msg: mqtt_packet_sent, packet: CONNACK(Q0, R0, D0, AckFlags=0, ReasonCode=0), username: ownu\n')
    expect(text).toContain('msg: authentication_result, reason: no_chain, result: ignore, username: ownu\n')
    expect(text).toContain('msg: publish_to, payload_encode: text, topic: own/t, username: ownu, payload: p\n')
    // No subscribe line for the broker's own `$SYS/` topics, as emqx_trace:subscribe/3.
    expect(text).toContain('TopicFilters=[$SYS/brokers/+/version(')
    expect(text).not.toContain('msg: subscribe, ')
    // A client's DISCONNECT is a close the channel decides (5.8's {close, normal}), then the end.
    expect(text).toMatch(new RegExp(String.raw`\[SOCKET\] own-1@${PEER} msg: socket_force_closed, reason: normal, username: ownu\n[^\n]*\[SOCKET\] own-1@${PEER} msg: emqx_connection_terminated, reason: normal, username: ownu\n`))

    const raw = rawClient(suite.t.server.mqttPort, 4)
    raw.send(connectPacket({ protocolVersion: 4, clientId: 'own-sleepy', keepalive: 1 }))
    await raw.closed
    expect(await logContaining('sleepy', 'emqx_connection_terminated')).toMatch(/msg: socket_force_closed, reason: keepalive_timeout\n[^\n]*msg: emqx_connection_terminated, reason: keepalive_timeout\n/)

    // A PUBLISH emqx_packet:check/1 refuses, and a second CONNECT: traced, then a forced close.
    await createTrace({ name: 'refused', type: 'clientid', clientid: 'own-bad' })
    const bad = rawClient(suite.t.server.mqttPort, 5)
    bad.send(connectPacket({ protocolVersion: 5, clientId: 'own-bad' }))
    await bad.next('connack')
    bad.send({ cmd: 'publish', topic: 'bad/+', payload: Buffer.from('x'), qos: 0, retain: false, dup: false })
    await bad.closed
    expect(await logContaining('refused', 'emqx_connection_terminated')).toMatch(/msg: invalid_publish_packet, reason: topic_name_invalid\n[^\n]*msg: mqtt_packet_sent, packet: DISCONNECT\(Q0, R0, D0, ReasonCode=144\)\n[^\n]*msg: socket_force_closed, reason: topic_name_invalid\n/)
    await createTrace({ name: 'twice', type: 'clientid', clientid: 'own-twice' })
    const twice = rawClient(suite.t.server.mqttPort, 4)
    twice.send(connectPacket({ protocolVersion: 4, clientId: 'own-twice' }))
    await twice.next('connack')
    twice.send(connectPacket({ protocolVersion: 4, clientId: 'own-twice' }))
    await twice.closed
    expect(await logContaining('twice', 'emqx_connection_terminated')).toMatch(/msg: unexpected_connect_packet, conn_state: connected\n[^\n]*msg: socket_force_closed, reason: protocol_error\n/)

    // A kick ends the session from outside: the DISCONNECT, then the end, no forced close.
    await suite.t.connect({ clientId: 'own-kicked', protocolVersion: 5 })
    expect((await suite.api.delete('/clients/own-kicked')).status).toBe(204)
    const kicked = await logContaining('kicked', 'emqx_connection_terminated')
    expect(kicked).toContain('msg: mqtt_packet_sent, packet: DISCONNECT(Q0, R0, D0, ReasonCode=152)')
    expect(kicked).toContain('msg: emqx_connection_terminated, reason: kicked')
    expect(kicked).not.toContain('socket_force_closed')
  })

  it('a chunk past what memory can make into text is 503 Requested chunk size too big, and smaller reads go on', async () => {
    const trace = await createTrace({ name: 'huge', type: 'clientid', clientid: 'nobody-huge' })
    // A file at its 512 MB bound, read at once: more characters than V8 makes one string of. The
    // file is sparse (no disk is written); the read allocates only what the file holds.
    const path = join(suite.t.dataDir, 'trace', traceFileName('huge', Math.floor(Date.parse(trace.start_at) / 1000)))
    truncateSync(path, 512 * 1024 * 1024)
    expect(await suite.api.get('/trace/huge/log?bytes=2147483647')).toEqual({ status: 503, body: { code: 'SERVICE_UNAVAILABLE', message: 'Requested chunk size too big' } })
    expect(await suite.api.get('/trace/huge/log?bytes=4&position=10')).toEqual({ status: 200, body: { items: '\u0000'.repeat(4), meta: { position: 14, bytes: 4 } } })
  })
})
