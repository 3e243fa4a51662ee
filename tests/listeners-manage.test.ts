// Listeners managed through the API with real mqtt.js clients: created on a free port and
// connected to, stopped (the port refuses and its clients go), started, updated, deleted; the
// limits (max_connections, max_conn_rate), the mountpoint, enable_authn, the PROXY protocol header,
// EMQX's errors that change nothing, and the listeners saved across a restart.
import { connect as netConnect } from 'node:net'
import { generate } from 'mqtt-packet'
import { V1ProxyProtocol, INETProtocol, Peer, V2ProxyProtocol, Command, TransportProtocol, IPv4ProxyAddress, IPv4Address } from 'proxy-protocol-js'
import { afterAll, describe, expect, it } from 'vitest'
import { closed, collect, connectMqtt, connectPacket, serverPerSuite, startTestServer, waitFor } from './support/server.ts'

const suite = serverPerSuite()

/** Creates a listener on a free port of 127.0.0.1; answers the listener and its port. */
async function create(type: string, name: string, config: Record<string, unknown> = {}) {
  const response = await suite.api.post('/listeners', { type, name, bind: '127.0.0.1:0', ...config })
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return { body: response.body, port: Number(String(response.body.bind).split(':').pop()) }
}

/** True when a TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })
}

const removed: string[] = []
afterAll(async () => {
  for (const id of removed) await suite.api.delete(`/listeners/${id}`)
})

describe('listeners managed through the API', () => {
  it('creates a tcp listener that real clients connect to, lists it and its type status, and refuses the same id twice', async () => {
    const { body, port } = await create('tcp', 'extra')
    removed.push('tcp:extra')
    expect(body).toMatchObject({ id: 'tcp:extra', type: 'tcp', running: true, current_connections: 0, max_connections: 'infinity', mountpoint: '', zone: 'default', enable_authn: true, acceptors: 16 })
    expect(body.tcp_options).toMatchObject({ nodelay: true, backlog: 1024 })
    const client = await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'on-extra' })
    const listed = (await suite.api.get('/listeners?type=tcp')).body
    expect(listed.map((l: { id: string }) => l.id)).toEqual(['tcp:default', 'tcp:extra'])
    expect(listed[1].status).toEqual({ running: true, current_connections: 1, max_connections: 'infinity' })
    const clientRow = (await suite.api.get('/clients/on-extra')).body
    expect(clientRow.listener).toBe('tcp:extra')
    const status = (await suite.api.get('/listeners_status')).body
    expect(status.find((s: { type: string }) => s.type === 'tcp')).toMatchObject({ type: 'tcp', ids: ['tcp:default', 'tcp:extra'], status: { running: true, current_connections: 1 } })

    const again = await suite.api.post('/listeners', { type: 'tcp', name: 'extra', bind: '127.0.0.1:0' })
    expect(again).toEqual({ status: 400, body: { code: 'BAD_LISTENER_ID', message: 'Already Exist' } })
    // Two creates of one id at once: one is made, the other is told it exists.
    const both = await Promise.all([0, 1].map(() => suite.api.post('/listeners', { type: 'tcp', name: 'twice', bind: '127.0.0.1:0' })))
    removed.push('tcp:twice')
    expect(both.map((r) => r.status).sort()).toEqual([200, 400])
    expect(both.find((r) => r.status === 400)?.body).toEqual({ code: 'BAD_LISTENER_ID', message: 'Already Exist' })
    await client.endAsync()
  })

  it('creates with the deprecated POST /listeners/{id} form the dashboard uses, and deletes with 204', async () => {
    const response = await suite.api.post('/listeners/tcp:legacy', { type: 'tcp', id: 'tcp:legacy', bind: '127.0.0.1:0' })
    expect(response.status).toBe(200)
    const port = Number(response.body.bind.split(':').pop())
    const client = await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'legacy' })
    const gone = closed(client)
    expect((await suite.api.delete('/listeners/tcp:legacy')).status).toBe(204)
    await gone
    expect(await refused(port)).toBe(true)
    expect((await suite.api.get('/listeners/tcp:legacy')).status).toBe(404)
    expect((await suite.api.delete('/listeners/tcp:legacy')).body).toEqual({ code: 'BAD_LISTENER_ID', message: 'Listener id not found' })
  })

  it('stop closes the port and every connection and saves enable=false; start opens it again', async () => {
    const { port } = await create('tcp', 'stoppable')
    removed.push('tcp:stoppable')
    const client = await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'stopped-out' })
    const gone = closed(client)
    const stop = await suite.api.post('/listeners/tcp:stoppable/stop')
    expect(stop.status).toBe(200)
    await gone
    expect(await refused(port)).toBe(true)
    expect((await suite.api.get('/listeners/tcp:stoppable')).body).toMatchObject({ enable: false, running: false, current_connections: 0 })

    expect((await suite.api.post('/listeners/tcp:stoppable/start')).status).toBe(200)
    expect((await suite.api.get('/listeners/tcp:stoppable')).body).toMatchObject({ enable: true, running: true })
    const back = await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'back-in' })
    expect((await suite.api.post('/listeners/tcp:stoppable/restart')).status).toBe(200)
    await closed(back)
    await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'after-restart' })
    expect((await suite.api.post('/listeners/tcp:nothing/stop')).status).toBe(404)
  })

  it('refuses a bad bind, a port in use, a type change and an unknown type with 400, changing nothing', async () => {
    const before = (await suite.api.get('/listeners')).body
    const badBind = await suite.api.post('/listeners', { type: 'tcp', name: 'bad', bind: 'nowhere:99999' })
    expect(badBind.status).toBe(400)
    expect(badBind.body.code).toBe('BAD_REQUEST')
    expect(badBind.body.message).toContain('bind')
    const inUse = await suite.api.post('/listeners', { type: 'tcp', name: 'clash', bind: `127.0.0.1:${suite.t.server.mqttPort}` })
    expect(inUse).toEqual({ status: 400, body: { code: 'BAD_REQUEST', message: `{failed_to_start,"tcp:clash(127.0.0.1:${suite.t.server.mqttPort}) : eaddrinuse"}` } })
    const unknownType = await suite.api.post('/listeners', { type: 'udp', name: 'x', bind: '127.0.0.1:0' })
    expect(unknownType.status).toBe(400)
    const typeChange = await suite.api.request('PUT', '/listeners/tcp:default', { type: 'ws', id: 'tcp:default' })
    expect(typeChange.status).toBe(400)
    const mismatch = await suite.api.request('PUT', '/listeners/tcp:default', { type: 'tcp', id: 'tcp:other' })
    expect(mismatch).toEqual({ status: 400, body: { code: 'BAD_LISTENER_ID', message: "Path and body's listener id not match" } })
    const zone = await suite.api.request('PUT', '/listeners/tcp:default', { type: 'tcp', id: 'tcp:default', zone: 'other' })
    expect(zone).toEqual({ status: 400, body: { code: 'BAD_REQUEST', message: '{unknown_zone,<<"other">>}' } })
    const missing = await suite.api.request('PUT', '/listeners/tcp:nope', { type: 'tcp', id: 'tcp:nope' })
    expect(missing.status).toBe(404)
    // A port in use on update: the listener keeps running on its old one.
    const { port } = await create('tcp', 'mover')
    removed.push('tcp:mover')
    const moved = await suite.api.request('PUT', '/listeners/tcp:mover', { type: 'tcp', id: 'tcp:mover', bind: `127.0.0.1:${suite.t.server.mqttPort}` })
    expect(moved.status).toBe(400)
    expect((await suite.api.get('/listeners/tcp:mover')).body).toMatchObject({ bind: `127.0.0.1:${port}`, running: true })
    await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'still-there' })
    const after = (await suite.api.get('/listeners')).body
    expect(after.map((l: { id: string }) => l.id)).toEqual([...before.map((l: { id: string }) => l.id), 'tcp:mover'])
  })

  it('max_connections refuses the socket over the limit; PUT deep-merges the change, keeping open connections on the same address', async () => {
    const { port } = await create('tcp', 'small', { max_connections: 1 })
    removed.push('tcp:small')
    await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'first-in' })
    await expect(connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'second-in' })).rejects.toThrow()
    const put = await suite.api.request('PUT', '/listeners/tcp:small', { type: 'tcp', id: 'tcp:small', max_connections: 2, tcp_options: { nodelay: false } })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ max_connections: 2, bind: `127.0.0.1:${port}`, tcp_options: { nodelay: false, backlog: 1024 } })
    // On the same address the change takes effect for new connections; the open one stays.
    await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'second-now' })
    await expect(connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'third-now' })).rejects.toThrow()
    expect((await suite.api.get('/listeners/tcp:small')).body.current_connections).toBe(2)
    expect((await suite.api.get('/clients/first-in')).status).toBe(200)
  })

  it('a closed connection gives its place back: max_connections counts the connections open now', async () => {
    const { port } = await create('tcp', 'turns', { max_connections: 1 })
    removed.push('tcp:turns')
    for (const clientId of ['turn-1', 'turn-2', 'turn-3']) {
      const client = await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId })
      await new Promise<void>((resolve) => client.end(false, {}, () => resolve()))
      await waitFor(async () => (await suite.api.get('/listeners/tcp:turns')).body.current_connections === 0, 'the closed connection released')
    }
  })

  it('access_rules: the first rule matching the address decides; a bad rule is refused with 5.8\'s message', async () => {
    const { body, port } = await create('tcp', 'guarded', { access_rules: ['deny 127.0.0.0/8, allow all'] })
    removed.push('tcp:guarded')
    expect(body.access_rules).toEqual(['deny 127.0.0.0/8', 'allow all'])
    await expect(connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'denied' })).rejects.toThrow()
    await suite.api.request('PUT', '/listeners/tcp:guarded', { type: 'tcp', id: 'tcp:guarded', access_rules: ['allow 127.0.0.1', 'deny all'] })
    await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'allowed' })
    const bad = await suite.api.post('/listeners', { type: 'tcp', name: 'badrules', bind: '127.0.0.1:0', access_rules: ['allow 10.0.0.0/99', 'permit all'] })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain('invalid_rule(s): allow 10.0.0.0/99, permit all')
  })

  it('max_conn_rate refuses sockets over the rate', async () => {
    const { port } = await create('tcp', 'slow', { max_conn_rate: '1/m' })
    removed.push('tcp:slow')
    await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'rate-first' })
    await expect(connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'rate-second' })).rejects.toThrow()
  })

  it('puts the mountpoint before the topics a client sends and takes it off the ones it gets', async () => {
    const { port } = await create('tcp', 'mounted', { mountpoint: 'dev/${clientid}/' })
    removed.push('tcp:mounted')
    const inside = await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'm1' })
    const outside = await connectMqtt(suite.t.mqttUrl, { clientId: 'watcher' })
    const got = collect(inside)
    const seen = collect(outside)
    await inside.subscribeAsync('cmd/#')
    await outside.subscribeAsync('dev/#')
    expect((await suite.api.get('/subscriptions?clientid=m1')).body.data.map((s: { topic: string }) => s.topic)).toEqual(['dev/m1/cmd/#'])
    await inside.publishAsync('up', 'hello', { qos: 1 })
    await outside.publishAsync('dev/m1/cmd/go', 'now', { qos: 1 })
    await waitFor(() => got.length === 1 && seen.length >= 2, 'both sides got their messages')
    expect(got[0]).toMatchObject({ topic: 'cmd/go', payload: 'now' })
    expect(seen.map((m) => m.topic).sort()).toEqual(['dev/m1/cmd/go', 'dev/m1/up'])
  })

  it('enable_authn quick_deny_anonymous refuses a client without a username before the chain', async () => {
    const { port } = await create('tcp', 'named', { enable_authn: 'quick_deny_anonymous' })
    removed.push('tcp:named')
    await expect(connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'anon' })).rejects.toThrow(/Not authorized/i)
    await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'named', username: 'someone' })
  })

  it('enable_authn false lets clients in without asking the authentication chain', async () => {
    const authn = await suite.api.post('/authentication', { mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'username' })
    expect(authn.status).toBe(200)
    try {
      const { port } = await create('tcp', 'open', { enable_authn: false })
      removed.push('tcp:open')
      await expect(connectMqtt(suite.t.mqttUrl, { clientId: 'chained', username: 'nobody', password: 'x' })).rejects.toThrow()
      await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'unchained', username: 'nobody', password: 'x' })
    } finally {
      await suite.api.delete('/authentication/password_based:built_in_database')
    }
  })

  it('takes the client address from a PROXY protocol header, v1 and v2, and shows it in /clients', async () => {
    const { port } = await create('tcp', 'proxied', { proxy_protocol: true, proxy_protocol_timeout: '2s' })
    removed.push('tcp:proxied')
    const v1 = new V1ProxyProtocol(INETProtocol.TCP4, new Peer('192.0.2.10', 40001), new Peer('127.0.0.1', port)).build()
    const v2 = new V2ProxyProtocol(
      Command.PROXY,
      TransportProtocol.STREAM,
      new IPv4ProxyAddress(IPv4Address.createFrom([198, 51, 100, 7]), 40002, IPv4Address.createFrom([127, 0, 0, 1]), port),
    ).build()
    const sockets = [
      { clientId: 'via-v1', header: Buffer.from(v1) },
      { clientId: 'via-v2', header: Buffer.from(v2) },
    ].map(({ clientId, header }) => {
      const socket = netConnect(port, '127.0.0.1')
      socket.on('error', () => socket.destroy())
      socket.write(Buffer.concat([header, generate(connectPacket({ clientId }))]))
      return socket
    })
    try {
      const one = await waitFor(async () => (await suite.api.get('/clients/via-v1')).body.ip_address && (await suite.api.get('/clients/via-v1')).body, 'via-v1 connected')
      const two = await waitFor(async () => (await suite.api.get('/clients/via-v2')).body.ip_address && (await suite.api.get('/clients/via-v2')).body, 'via-v2 connected')
      expect([one.ip_address, one.port]).toEqual(['192.0.2.10', 40001])
      expect([two.ip_address, two.port]).toEqual(['198.51.100.7', 40002])
      // Without a header the listener closes the socket.
      const bare = netConnect(port, '127.0.0.1')
      bare.on('error', () => bare.destroy())
      bare.write(generate(connectPacket({ clientId: 'no-header' })))
      await new Promise((resolve) => bare.once('close', resolve))
    } finally {
      for (const socket of sockets) socket.destroy()
    }
  })

  it('a ws listener serves MQTT at its own mqtt_path; quic is kept but does not run, as EMQX without QUIC', async () => {
    const { port, body } = await create('ws', 'extra', { websocket: { mqtt_path: '/other' } })
    removed.push('ws:extra')
    expect(body.websocket).toMatchObject({ mqtt_path: '/other', mqtt_piggyback: 'multiple', fail_if_no_subprotocol: true })
    await connectMqtt(`ws://127.0.0.1:${port}/other`, { clientId: 'ws-extra' })
    await expect(connectMqtt(`ws://127.0.0.1:${port}/mqtt`, { clientId: 'ws-wrong-path' })).rejects.toThrow()
    // Behind an HTTP proxy: x-forwarded-for and x-forwarded-port name the client, as EMQX reads them.
    const forwarded = await connectMqtt(`ws://127.0.0.1:${port}/other`, { clientId: 'ws-forwarded', wsOptions: { headers: { 'x-forwarded-for': '198.51.100.20, 10.0.0.1', 'x-forwarded-port': '41000' } } })
    expect((await suite.api.get('/clients/ws-forwarded')).body).toMatchObject({ ip_address: '198.51.100.20', port: 41000 })
    await forwarded.endAsync()
    const quic = await suite.api.post('/listeners', { type: 'quic', name: 'q', bind: '127.0.0.1:14567' })
    removed.push('quic:q')
    expect(quic.body).toMatchObject({ id: 'quic:q', type: 'quic', running: false, enable: true })
  })
})

describe('listeners across a restart', () => {
  it('come back as saved; tcp:default keeps the port of the server settings', async () => {
    const first = await startTestServer()
    const api = await first.login()
    const created = await api.post('/listeners', { type: 'tcp', name: 'kept', bind: '127.0.0.1:0', mountpoint: 'kept/' })
    const port = Number(created.body.bind.split(':').pop())
    await api.request('PUT', '/listeners/tcp:default', { type: 'tcp', id: 'tcp:default', max_connections: 100 })
    await first.close({ keepData: true })
    const second = await startTestServer({ dataDir: first.dataDir, config: { mqttPort: 0 } })
    try {
      const again = await second.login()
      expect((await again.get('/listeners/tcp:kept')).body).toMatchObject({ running: true, bind: `127.0.0.1:${port}`, mountpoint: 'kept/' })
      expect((await again.get('/listeners/tcp:default')).body).toMatchObject({ max_connections: 100, bind: `127.0.0.1:${second.server.mqttPort}` })
      const client = await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'came-back' })
      await client.endAsync()
    } finally {
      await second.close()
    }
  })
})
