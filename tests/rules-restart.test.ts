// Rules and the engine settings survive a restart of the server, and the saved rules run again.
import { afterEach, describe, expect, it } from 'vitest'
import { collect, endClients, startTestServer, waitFor, type TestServer } from './support/server.ts'

let servers: TestServer[] = []
afterEach(async () => {
  await endClients()
  for (const server of servers) await server.close()
  servers = []
})

describe('rules across a restart', () => {
  it('keeps the rules with their times and the engine settings, and runs the rules again', async () => {
    const first = await startTestServer()
    const api = await first.login()
    const created = (await api.post('/rules', { id: 'kept', sql: 'SELECT * FROM "k/#"', actions: [{ function: 'republish', args: { topic: 'kept/out' } }] })).body
    await api.request('PUT', '/rule_engine', { ignore_sys_message: false, jq_function_default_timeout: '3s' })
    await first.close({ keepData: true })

    const second = await startTestServer({ dataDir: first.dataDir })
    servers.push(second)
    const again = await second.login()
    expect((await again.get('/rules/kept')).body).toEqual(created)
    expect((await again.get('/rule_engine')).body).toEqual({ ignore_sys_message: false, jq_function_default_timeout: 3000 })
    const client = await second.connect()
    const messages = collect(client)
    await client.subscribeAsync('kept/out')
    await client.publishAsync('k/1', 'x', { qos: 1 })
    await waitFor(() => messages.length === 1, 'the republished message after the restart')
  })
})
