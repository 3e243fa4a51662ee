// The listener commands as the palette and scripts run them, against the real embedded server with
// real mqtt.js clients: create (with the PEM a file upload gives), update, stop and start, disable
// and enable, restart and delete; their arguments checked before anything is sent; listener ids
// completed from the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { completeListenerId, listenerBody } from '../commands/listeners.ts'
import { parseBind } from '../contract/listeners.ts'
import type { Api } from '../src/api/index.ts'
import { makeCertificates, type TestCertificates } from './support/certs.ts'
import { consoleApi, invalidArgs, runCommand } from './support/commands.ts'
import { closed, connectMqtt, endClients, startTestServer, type TestServer } from './support/server.ts'

let ts: TestServer
let api: Api
let certs: TestCertificates
const run = (id: string, raw: Record<string, unknown> = {}) => runCommand(api, id, raw)
const portOf = async (id: string) => Number(String((await api.listeners.get(id)).bind).split(':').pop())

beforeAll(async () => {
  ts = await startTestServer()
  api = await consoleApi(ts)
  certs = makeCertificates('commands')
})

afterAll(async () => {
  await endClients()
  await ts.close()
  certs.remove()
})

describe('listener commands', () => {
  it('listener.create makes a tcp listener clients connect to; stop closes them and the port, start opens it', async () => {
    await run('listener.create', { type: 'tcp', name: 'cmd', bind: '127.0.0.1:0', max_connections: '5', mountpoint: 'm/', enable_authn: 'true', nodelay: 'false' })
    const detail = await api.listeners.get('tcp:cmd')
    expect(detail).toMatchObject({ max_connections: 5, mountpoint: 'm/', enable_authn: true, running: true, tcp_options: { nodelay: false } })
    const port = await portOf('tcp:cmd')
    const client = await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'cmd-client' })
    await run('listener.stop', { id: 'tcp:cmd' })
    await closed(client)
    await expect(connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'refused' })).rejects.toThrow()
    await run('listener.start', { id: 'tcp:cmd' })
    await connectMqtt(`mqtt://127.0.0.1:${port}`, { clientId: 'cmd-again' })
    await run('listener.disable', { id: 'tcp:cmd' })
    expect(await api.listeners.get('tcp:cmd')).toMatchObject({ enable: false, running: false })
    await run('listener.enable', { id: 'tcp:cmd' })
    await run('listener.restart', { id: 'tcp:cmd' })
    await run('listener.update', { id: 'tcp:cmd', max_connections: 'infinity', max_conn_rate: '100/s' })
    expect(await api.listeners.get('tcp:cmd')).toMatchObject({ max_connections: 'infinity', max_conn_rate: '100/s', mountpoint: 'm/', running: true })
    await run('listener.update', { id: 'tcp:cmd', mountpoint: 'none' })
    expect((await api.listeners.get('tcp:cmd')).mountpoint).toBe('')
    expect(await completeListenerId(api, 'cmd', new AbortController().signal)).toEqual(['tcp:cmd'])
    await run('listener.delete', { id: 'tcp:cmd' })
    expect((await api.listeners.list()).map((l) => l.id)).toEqual(['tcp:default', 'ws:default'])
  })

  it('listener.create makes an ssl listener from pasted PEM', async () => {
    await run('listener.create', { type: 'ssl', name: 'cmd', bind: '127.0.0.1:0', certfile: certs.serverCert, keyfile: certs.serverKey, cacertfile: certs.ca, verify: 'verify_peer' })
    const port = await portOf('ssl:cmd')
    await connectMqtt(`mqtts://127.0.0.1:${port}`, { clientId: 'cmd-tls', ca: certs.ca, cert: certs.clientCert, key: certs.clientKey, servername: 'localhost' })
  })

  it('a server refusal (port in use) reaches the caller as its message', async () => {
    await expect(run('listener.create', { type: 'tcp', name: 'clash', bind: `127.0.0.1:${ts.server.mqttPort}` })).rejects.toThrow(/eaddrinuse/)
  })

  it('checks its arguments before sending anything', () => {
    expect(invalidArgs('listener.create', { type: 'tcp', name: 'bad name', bind: '1883' })).toEqual(['name:err.listenerName'])
    expect(invalidArgs('listener.create', { type: 'udp', name: 'x', bind: 'nowhere' })).toEqual(['type:err.oneOf', 'bind:err.listenerBind'])
    expect(invalidArgs('listener.create', { type: 'tcp', name: 'x', bind: '1883', max_connections: '0', max_conn_rate: 'fast' })).toEqual(['max_connections:err.maxConnections', 'max_conn_rate:err.rate'])
    expect(invalidArgs('listener.stop', { id: 'default' })).toEqual(['id:err.listenerId'])
  })

  it('reads bind as EMQX does: port, :port, ip:port, [ipv6]:port', () => {
    expect(['1883', ':1883', '0.0.0.0:1883', '[::1]:1883', 'localhost:1883'].map((bind) => parseBind(bind))).toEqual([
      { host: undefined, port: 1883 },
      { host: undefined, port: 1883 },
      { host: '0.0.0.0', port: 1883 },
      { host: '::1', port: 1883 },
      { host: 'localhost', port: 1883 },
    ])
    expect(['1.2.3:1883', '0.0.0.0:70000', 'nowhere', '0.0.0.0:'].map((bind) => parseBind(bind))).toEqual([undefined, undefined, undefined, undefined])
  })

  it('shapes EMQX bodies: numbers, booleans, and the websocket, tcp_options and ssl_options sections', () => {
    expect(listenerBody({ bind: '8083', max_connections: '10', enable_authn: 'false', mqtt_path: '/ws', certfile: '' })).toEqual({
      bind: '8083',
      max_connections: 10,
      enable_authn: false,
      websocket: { mqtt_path: '/ws' },
    })
  })
})
