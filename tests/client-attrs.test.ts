// Client attributes end to end, as EMQX 5.8.9: `mqtt.client_attrs_init` and `clientid_override`
// validated in the MQTT settings, computed at CONNECT with real mqtt.js clients, merged with an HTTP
// authenticator's `client_attrs`, and read by an authorization file rule, a listener mountpoint, a
// rule's `client_attrs` column and GET /clients/{clientid}.
import { SignJWT } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { makeCertificates } from './support/certs.ts'
import { startHttpTarget, type HttpTarget } from './support/http-target.ts'
import { collect, connectMqtt, serverPerSuite, subackCodes, waitFor } from './support/server.ts'

const GROUP_INIT = { expression: "nth(1, tokens(clientid, '-'))", set_as_attr: 'group' }
const TEAM_INIT = { expression: 'user_property.team', set_as_attr: 'team' }

describe('client attributes', () => {
  const suite = serverPerSuite()
  const api = () => suite.api
  let http: HttpTarget

  beforeAll(async () => {
    http = await startHttpTarget()
  })
  afterAll(() => http.close())
  afterEach(async () => {
    await api().request('PUT', '/configs/mqtt', { client_attrs_init: [], clientid_override: 'disabled' })
    for (const entry of (await api().get('/authentication')).body as Array<{ id: string }>) await api().delete(`/authentication/${entry.id}`)
    for (const { type } of (await api().get('/authorization/sources')).body.sources as Array<{ type: string }>) await api().delete(`/authorization/sources/${type}`)
    for (const rule of (await api().get('/rules')).body.data as Array<{ id: string }>) await api().delete(`/rules/${rule.id}`)
  })

  const attrsOf = async (clientid: string) => (await api().get(`/clients/${encodeURIComponent(clientid)}`)).body.client_attrs

  it('refuses a bad expression or attribute name with 5.8\'s reason, and changes nothing', async () => {
    const before = (await api().get('/configs/mqtt')).body
    expect(before).toMatchObject({ client_attrs_init: [], clientid_override: 'disabled' })
    const bad = await api().request('PUT', '/configs/mqtt', { client_attrs_init: [{ expression: 'nth(1', set_as_attr: 'g' }] })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ code: 'BAD_REQUEST', message: 'mqtt client_attrs_init.0.expression: syntax error before: ' })
    const scan = await api().request('PUT', '/configs/global_zone', { mqtt: { client_attrs_init: [{ expression: "concat(a, 'b)", set_as_attr: 'g' }] } })
    expect(scan.status).toBe(400)
    expect(scan.body.message).toContain('{1,emqx_variform_scan,{illegal,"\'b)"}}')
    const name = await api().request('PUT', '/configs/mqtt', { client_attrs_init: [{ expression: 'clientid', set_as_attr: '-g' }] })
    expect(name.body).toEqual({ code: 'BAD_REQUEST', message: 'mqtt client_attrs_init.0.set_as_attr: Invalid string for attribute name' })
    const override = await api().request('PUT', '/configs/mqtt', { clientid_override: 'a b' })
    expect(override.body).toEqual({ code: 'BAD_REQUEST', message: 'mqtt clientid_override: syntax error before: "b"' })
    expect((await api().get('/configs/mqtt')).body).toEqual(before)
  })

  it('computes the attributes at CONNECT: an expression that fails or yields empty sets nothing; clientid_override sees them', async () => {
    const saved = await api().request('PUT', '/configs/global_zone', {
      mqtt: { client_attrs_init: [GROUP_INIT, TEAM_INIT, { expression: 'no_such_var', set_as_attr: 'gone' }, { expression: "''", set_as_attr: 'empty' }] },
    })
    // `''` alone is not an expression (5.8's grammar wants a call or a variable).
    expect(saved.status).toBe(400)
    const ok = await api().request('PUT', '/configs/global_zone', {
      mqtt: { client_attrs_init: [GROUP_INIT, TEAM_INIT, { expression: 'no_such_var', set_as_attr: 'gone' }, { expression: "concat([''])", set_as_attr: 'empty' }] },
    })
    expect(ok.status).toBe(200)
    expect(ok.body.mqtt.client_attrs_init).toHaveLength(4)
    await suite.t.connect({ clientId: 'g1-dev', protocolVersion: 5, properties: { userProperties: { team: 'red' } } })
    expect(await attrsOf('g1-dev')).toEqual({ group: 'g1', team: 'red' })
    // MQTT 3.1.1 has no user properties: `user_property.team` is unbound.
    await suite.t.connect({ clientId: 'g2-dev', protocolVersion: 4 })
    expect(await attrsOf('g2-dev')).toEqual({ group: 'g2' })

    await api().request('PUT', '/configs/mqtt', { clientid_override: "concat([client_attrs.group, ':', clientid])" })
    const client = await suite.t.connect({ clientId: 'g3-x', protocolVersion: 5 })
    expect((await api().get('/clients/g3%3Ag3-x')).body.client_attrs).toEqual({ group: 'g3' })
    expect((await api().get('/clients/g3-x')).status).toBe(404)
    client.end()
  })

  it('feeds an authorization file rule: ${client_attrs.group} in a topic, {client_attr, Name, Value} and {re, …} as who', async () => {
    await api().request('PUT', '/configs/mqtt', { client_attrs_init: [GROUP_INIT] })
    await api().request('PUT', '/authorization/settings', { no_match: 'deny', deny_action: 'ignore', cache: { enable: false, max_size: 32, ttl: '1m' } })
    const rules = [
      '{allow, all, subscribe, ["${client_attrs.group}/#"]}.',
      '{allow, {client_attr, "group", "teamA"}, subscribe, ["only-a/#"]}.',
      '{allow, {client_attr, "group", {re, "^team[AB]$"}}, subscribe, ["teams/#"]}.',
    ]
    const created = await api().post('/authorization/sources', { type: 'file', enable: true, rules: rules.join('\n') + '\n' })
    expect(created.status, JSON.stringify(created.body)).toBe(204)
    try {
      const client = await suite.t.connect({ clientId: 'teamA-1', protocolVersion: 5 })
      expect(await subackCodes(client, ['teamA/x', 'teamB/x', 'only-a/x', 'teams/x'])).toEqual([0, 0x87, 0, 0])
      const other = await suite.t.connect({ clientId: 'teamC-1', protocolVersion: 5 })
      expect(await subackCodes(other, ['teamC/x', 'only-a/x', 'teams/x'])).toEqual([0, 0x87, 0x87])
      // No attribute: the placeholder does not resolve and the rule matches nothing.
      await api().request('PUT', '/configs/mqtt', { client_attrs_init: [] })
      const plain = await suite.t.connect({ clientId: 'teamA-2', protocolVersion: 5 })
      expect(await subackCodes(plain, ['teamA/x', 'only-a/x', 'teams/x'])).toEqual([0x87, 0x87, 0x87])
    } finally {
      await api().request('PUT', '/authorization/settings', { no_match: 'allow', deny_action: 'ignore', cache: { enable: false, max_size: 32, ttl: '1m' } })
    }
  })

  it('renders a listener mountpoint ${client_attrs.group}/', async () => {
    await api().request('PUT', '/configs/mqtt', { client_attrs_init: [GROUP_INIT] })
    const created = await api().post('/listeners', { type: 'tcp', name: 'attrs', bind: '127.0.0.1:0', mountpoint: '${client_attrs.group}/' })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    try {
      const port = suite.t.server.broker!.listeners.port('tcp:attrs')
      const watcher = await suite.t.connect({ clientId: 'watcher', protocolVersion: 5 })
      const seen = collect(watcher)
      expect(await subackCodes(watcher, ['#'])).toEqual([0])
      const client = await suite.t.connect({ clientId: 'site7-a', protocolVersion: 5, port, host: '127.0.0.1' } as never)
      expect((await api().get('/clients/site7-a')).body.mountpoint).toBe('site7/')
      client.publish('t/1', 'hi')
      await waitFor(() => seen.find((m) => m.topic === 'site7/t/1'), 'the mounted publish')
    } finally {
      await api().delete('/listeners/tcp:attrs')
    }
  })

  it('gives a rule\'s client_attrs column', async () => {
    await api().request('PUT', '/configs/mqtt', { client_attrs_init: [GROUP_INIT] })
    const rule = await api().post('/rules', {
      id: 'attrs',
      sql: 'SELECT client_attrs FROM "t/#"',
      actions: [{ function: 'republish', args: { topic: 'seen/attrs', payload: '' } }],
    })
    expect(rule.status, JSON.stringify(rule.body)).toBe(201)
    const watcher = await suite.t.connect({ clientId: 'w-rule', protocolVersion: 5 })
    const seen = collect(watcher)
    await subackCodes(watcher, ['seen/attrs'])
    const client = await suite.t.connect({ clientId: 'eu-pub', protocolVersion: 5 })
    client.publish('t/x', 'x')
    const out = await waitFor(() => seen.find((m) => m.topic === 'seen/attrs'), 'the republished row')
    expect(JSON.parse(out.payload)).toEqual({ client_attrs: { group: 'eu' } })
  })

  it('merges an HTTP authenticator\'s client_attrs over the initial ones, dropping bad names', async () => {
    await api().request('PUT', '/configs/mqtt', { client_attrs_init: [GROUP_INIT] })
    http.reply(() => ({ result: 'allow', client_attrs: { group: 'from-http', role: 'admin', 'bad name': 'dropped' } }))
    const created = await api().post('/authentication', {
      mechanism: 'password_based',
      backend: 'http',
      method: 'post',
      url: `${http.url}/auth`,
      body: { clientid: '${clientid}', group: '${client_attrs.group}' },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    await suite.t.connect({ clientId: 'init-1', username: 'u', password: 'p', protocolVersion: 5 })
    // The request saw the initial attribute; the answer's attributes win.
    expect(JSON.parse(http.received.at(-1)!)).toEqual({ clientid: 'init-1', group: 'init' })
    expect(await attrsOf('init-1')).toEqual({ group: 'from-http', role: 'admin' })
  })

  it('merges a JWT\'s client_attrs claim the same way; a claim value that is not text fails the token', async () => {
    await api().request('PUT', '/configs/mqtt', { client_attrs_init: [GROUP_INIT] })
    const created = await api().post('/authentication', { mechanism: 'jwt', algorithm: 'hmac-based', secret: 'attrs-secret', from: 'password' })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('attrs-secret'))
    await suite.t.connect({ clientId: 'jwt-1', username: 'u', password: await sign({ client_attrs: { role: 'viewer', '': 'dropped' } }), protocolVersion: 5 })
    expect(await attrsOf('jwt-1')).toEqual({ group: 'jwt', role: 'viewer' })
    // emqx_authn_utils:client_attrs fails on a number: the authenticator gives no answer, nobody else allows.
    await expect(suite.t.connect({ clientId: 'jwt-2', username: 'u', password: await sign({ client_attrs: { level: 3 } }), protocolVersion: 5 })).rejects.toThrow()
  })

  it('binds cn, dn and peersni over TLS with a client certificate', async () => {
    const certs = makeCertificates('device-7')
    try {
      await api().request('PUT', '/configs/mqtt', {
        client_attrs_init: [
          { expression: 'cn', set_as_attr: 'cn' },
          { expression: 'dn', set_as_attr: 'dn' },
          { expression: 'peersni', set_as_attr: 'sni' },
        ],
      })
      const created = await api().post('/listeners', {
        type: 'ssl',
        name: 'attrs',
        bind: '127.0.0.1:0',
        ssl_options: { certfile: certs.serverCert, keyfile: certs.serverKey, cacertfile: certs.ca, verify: 'verify_peer', fail_if_no_peer_cert: true },
      })
      expect(created.status, JSON.stringify(created.body)).toBe(200)
      const port = suite.t.server.broker!.listeners.port('ssl:attrs')
      await connectMqtt(`mqtts://127.0.0.1:${port}`, { clientId: 'tls-1', ca: certs.ca, cert: certs.clientCert, key: certs.clientKey, servername: 'localhost' })
      expect(await attrsOf('tls-1')).toEqual({ cn: 'device-7', dn: 'O=EMQX Console,CN=device-7', sni: 'localhost' })
      // Over plain TCP there is no certificate: the three are unbound and set nothing.
      await suite.t.connect({ clientId: 'tcp-1', protocolVersion: 5 })
      expect(await attrsOf('tcp-1')).toEqual({})
    } finally {
      await api().delete('/listeners/ssl:attrs')
      certs.remove()
    }
  })
})
