// The listeners contract (contract/listeners.ts) against the server's real answers with real mqtt.js
// clients on TCP and WebSocket, and the browser's API module reading them.
import { describe, expect, it } from 'vitest'
import { ListenerRecordSchema, listenersErrors, ListenerSummaryListSchema } from '../contract/listeners.ts'
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
    expect(ws.websocket).toEqual({ mqtt_path: '/mqtt' })

    expectContractError(await suite.api.get('/listeners?type=udp'), listenersErrors.badRequest)
    expectContractError(await suite.api.get('/listeners/nonsense'), listenersErrors.badRequest)
    const missing = await suite.api.get('/listeners/ssl:default')
    expectContractError(missing, listenersErrors.notFound)
    expect(missing.body.message).toBe(listenersErrors.notFound.message)

    const console = await consoleApi(suite.t)
    const read = await console.listeners.list()
    expect(read.map((listener) => listener.id)).toEqual(['tcp:default', 'ws:default'])
    const node = listed[0].node_status[0].node
    expect(statusOnNode(read[1], node)).toEqual({ running: true, current_connections: 1, max_connections: 'infinity' })
  })
})
