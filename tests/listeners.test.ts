// GET /listeners and GET /listeners/{id}: the embedded broker's real TCP and WebSocket listeners,
// their real bound address and the connections each holds, counted from real mqtt.js clients.
import { connect as netConnect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { closed, serverPerSuite, waitFor } from './support/server.ts'

interface ListenerStatus {
  running: boolean | 'inconsistent'
  current_connections: number
  max_connections: number | 'infinity'
}

interface ListedListener {
  id: string
  type: string
  name: string
  enable: boolean
  bind: string
  number: number
  status: ListenerStatus
  node_status: { node: string; status: ListenerStatus }[]
}

describe('listeners', () => {
  const suite = serverPerSuite()
  const list = async (query = ''): Promise<ListedListener[]> => {
    const response = await suite.api.get(`/listeners${query}`)
    expect(response.status).toBe(200)
    return response.body
  }
  const counts = async () => Object.fromEntries((await list()).map((l) => [l.id, l.status.current_connections]))

  it('lists tcp:default and ws:default with the address and port each really got', async () => {
    const [node] = (await suite.api.get('/nodes')).body
    const listeners = await list()
    expect(listeners.map((l) => l.id)).toEqual(['tcp:default', 'ws:default'])
    const [tcp, ws] = listeners
    const idle = { running: true, current_connections: 0, max_connections: 'infinity' }
    expect(tcp).toEqual({
      id: 'tcp:default',
      type: 'tcp',
      name: 'default',
      enable: true,
      bind: `127.0.0.1:${suite.t.server.mqttPort}`,
      acceptors: 16,
      number: 1,
      status: idle,
      node_status: [{ node: node.node, status: idle }],
    })
    expect(ws).toMatchObject({ id: 'ws:default', type: 'ws', name: 'default', bind: `127.0.0.1:${suite.t.server.wsPort}` })
  })

  it('counts live connections per listener, over TCP and WebSocket, and drops them on disconnect', async () => {
    const tcpA = await suite.t.connect({ clientId: 'ls-tcp-a' })
    const tcpB = await suite.t.connect({ clientId: 'ls-tcp-b', protocolVersion: 5 })
    const ws = await suite.t.connect({ clientId: 'ls-ws', transport: 'ws' })
    expect(await counts()).toEqual({ 'tcp:default': 2, 'ws:default': 1 })

    const [wsListed] = await list('?type=ws')
    expect(wsListed.node_status).toHaveLength(1)
    expect(wsListed.node_status[0].status.current_connections).toBe(1)

    await tcpA.endAsync()
    await closed(tcpA)
    await waitFor(async () => (await counts())['tcp:default'] === 1, 'tcp:default back to 1')
    await ws.endAsync()
    await waitFor(async () => (await counts())['ws:default'] === 0, 'ws:default back to 0')
    expect((await counts())['tcp:default']).toBe(1)
    await tcpB.endAsync()
    await waitFor(async () => (await counts())['tcp:default'] === 0, 'tcp:default back to 0')
  })

  it('counts a socket that has not sent CONNECT yet, as EMQX counts accepted sockets', async () => {
    const socket = netConnect(suite.t.server.mqttPort, '127.0.0.1')
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
    await waitFor(async () => (await counts())['tcp:default'] === 1, 'the bare socket counted')
    socket.destroy()
    await waitFor(async () => (await counts())['tcp:default'] === 0, 'the bare socket gone')
  })

  it('filters by type: tcp, ws, and none for a type the broker does not run', async () => {
    expect((await list('?type=tcp')).map((l) => l.id)).toEqual(['tcp:default'])
    expect((await list('?type=ws')).map((l) => l.id)).toEqual(['ws:default'])
    expect(await list('?type=ssl')).toEqual([])
    const bad = await suite.api.get('/listeners?type=mqtt')
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('BAD_REQUEST')
  })

  it('reads one listener by id with its live count, and refuses unknown or malformed ids', async () => {
    const client = await suite.t.connect({ clientId: 'ls-one', transport: 'ws' })
    const one = await suite.api.get('/listeners/ws:default')
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({
      id: 'ws:default',
      type: 'ws',
      enable: true,
      running: true,
      bind: `127.0.0.1:${suite.t.server.wsPort}`,
      current_connections: 1,
      max_connections: 'infinity',
      websocket: { mqtt_path: '/mqtt', fail_if_no_subprotocol: true },
    })
    await client.endAsync()

    const missing = await suite.api.get('/listeners/tcp:other')
    expect(missing).toEqual({ status: 404, body: { code: 'BAD_LISTENER_ID', message: 'Listener id not found' } })
    const malformed = await suite.api.get('/listeners/nocolon')
    expect(malformed.status).toBe(400)
    expect(malformed.body.code).toBe('BAD_REQUEST')
  })

  it('needs a login like every other endpoint', async () => {
    expect((await suite.t.raw('/listeners')).status).toBe(401)
  })
})
