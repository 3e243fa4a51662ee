// The listeners contract (contract/listeners.ts) against the server's real answers with real mqtt.js
// clients on TCP and WebSocket, and the browser's API module reading them.
import { describe, expect, it } from 'vitest'
import { ListenerRecordSchema, listenersErrors, ListenerSummaryListSchema, ListenerTypeStatusListSchema } from '../contract/listeners.ts'
import { statusOnNode } from '../src/api/listeners.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

describe('listeners contract', () => {
  it('the list and the listener the server writes are the contract, with its errors', async () => {
    await suite.t.connect({ clientId: 'contract-listener-tcp' })
    await suite.t.connect({ clientId: 'contract-listener-ws', transport: 'ws' })

    const listed = expectContract(ListenerSummaryListSchema, (await suite.api.get('/listeners')).body, 'list')
    expect(listed.map((listener) => [listener.id, listener.status.current_connections])).toEqual([
      ['tcp:default', 1],
      ['ws:default', 1],
    ])
    expect(expectContract(ListenerSummaryListSchema, (await suite.api.get('/listeners?type=ws')).body, 'by type').map((l) => l.id)).toEqual(['ws:default'])
    const tcp = expectContract(ListenerRecordSchema, (await suite.api.get('/listeners/tcp:default')).body, 'tcp listener')
    expect(tcp).toMatchObject({ id: 'tcp:default', running: true, current_connections: 1 })
    const ws = expectContract(ListenerRecordSchema, (await suite.api.get('/listeners/ws:default')).body, 'ws listener')
    expect(ws.websocket).toMatchObject({ mqtt_path: '/mqtt', supported_subprotocols: 'mqtt, mqtt-v3, mqtt-v3.1.1, mqtt-v5' })

    expectContractError(await suite.api.get('/listeners?type=udp'), listenersErrors.badRequest)
    expectContractError(await suite.api.get('/listeners/nonsense'), listenersErrors.badRequest)
    const missing = await suite.api.get('/listeners/ssl:default')
    expectContractError(missing, listenersErrors.notFound)
    expect(missing.body.message).toBe(listenersErrors.notFound.message)

    const created = expectContract(ListenerRecordSchema, (await suite.api.post('/listeners', { type: 'ws', name: 'contract', bind: '127.0.0.1:0', running: true })).body, 'created')
    expect(created).toMatchObject({ id: 'ws:contract', running: true, current_connections: 0 })
    const updated = await suite.api.request('PUT', '/listeners/ws:contract', { type: 'ws', id: 'ws:contract', max_connections: 10 })
    expect(expectContract(ListenerRecordSchema, updated.body, 'updated').max_connections).toBe(10)
    const byType = expectContract(ListenerTypeStatusListSchema, (await suite.api.get('/listeners_status')).body, 'status by type')
    expect(byType.find((entry) => entry.type === 'ws')).toMatchObject({ ids: ['ws:contract', 'ws:default'], status: { current_connections: 1, max_connections: 'infinity' } })
    expectContractError(await suite.api.post('/listeners', { type: 'ws', name: 'contract', bind: '127.0.0.1:0' }), listenersErrors.exists)
    expectContractError(await suite.api.request('PUT', '/listeners/ws:contract', { type: 'ws', id: 'ws:other' }), listenersErrors.idMismatch)
    expect((await suite.api.delete('/listeners/ws:contract')).status).toBe(204)

    const console = await consoleApi(suite.t)
    const read = await console.listeners.list()
    expect(read.map((listener) => listener.id)).toEqual(['tcp:default', 'ws:default'])
    const node = listed[0].node_status[0].node
    expect(statusOnNode(read[1], node)).toEqual({ running: true, current_connections: 1, max_connections: 'infinity' })
  })
})
