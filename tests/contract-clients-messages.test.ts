// A client's queued and inflight messages (contract/clients.ts clientMessagePageSchema, whose message
// fields are contract/message.ts's) against the server's real answers with real mqtt.js clients, and
// the browser's API module reading them.
import { describe, expect, it } from 'vitest'
import { CLIENTID_NOT_FOUND, clientMessagePageSchema, INVALID_POSITION } from '../contract/clients.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()

describe('client messages contract', () => {
  it('the queue and inflight pages the server writes are the contract, with its errors', async () => {
    // A persistent session away: what is published to it waits in its queue.
    const away = await suite.t.connect({ clientId: 'contract-queued', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 300 } })
    await away.subscribeAsync('contract/queued', { qos: 1 })
    await away.endAsync()
    // A subscriber that never acknowledges: what is sent to it stays in flight.
    const stuck = await suite.t.connect({ clientId: 'contract-inflight', protocolVersion: 5 }, (c) => {
      c.handleMessage = () => undefined
    })
    await stuck.subscribeAsync('contract/inflight', { qos: 1 })
    const publisher = await suite.t.connect({ clientId: 'contract-messages-pub', username: 'contract-user' })
    for (const n of [1, 2, 3]) await publisher.publishAsync('contract/queued', `queued ${n}`, { qos: 1 })
    await publisher.publishAsync('contract/inflight', 'in flight', { qos: 1 })
    await waitFor(async () => (await suite.api.get('/clients/contract-queued')).body.mqueue_len === 3, 'three queued messages')
    await waitFor(async () => (await suite.api.get('/clients/contract-inflight')).body.inflight_cnt === 1, 'one message in flight')

    const queued = expectContract(clientMessagePageSchema, (await suite.api.get('/clients/contract-queued/mqueue_messages?limit=2')).body, 'mqueue')
    expect(queued.data.map((m) => [m.topic, m.from_clientid, m.from_username])).toEqual([
      ['contract/queued', 'contract-messages-pub', 'contract-user'],
      ['contract/queued', 'contract-messages-pub', 'contract-user'],
    ])
    expect(Buffer.from(queued.data[0].payload ?? '', 'base64').toString()).toBe('queued 1')
    const rest = expectContract(
      clientMessagePageSchema,
      (await suite.api.get(`/clients/contract-queued/mqueue_messages?position=${queued.meta.position}&payload=plain`)).body,
      'mqueue, next page',
    )
    expect(rest.data.map((m) => m.payload)).toEqual(['queued 3'])
    expect(rest.meta.position).toBe('none')
    expectContract(clientMessagePageSchema, (await suite.api.get('/clients/contract-queued/mqueue_messages?payload=none')).body, 'mqueue, no payload')

    const inflight = expectContract(clientMessagePageSchema, (await suite.api.get('/clients/contract-inflight/inflight_messages')).body, 'inflight')
    expect(inflight.data.map((m) => [m.topic, m.qos, m.mqueue_priority])).toEqual([['contract/inflight', 1, undefined]])
    expectContract(clientMessagePageSchema, (await suite.api.get('/clients/contract-queued/inflight_messages')).body, 'empty inflight')

    expectContractError(await suite.api.get('/clients/contract-queued/mqueue_messages?position=later'), INVALID_POSITION)
    expectContractError(await suite.api.get('/clients/contract-nobody/inflight_messages'), CLIENTID_NOT_FOUND)

    const console = await consoleApi(suite.t)
    const first = await console.clients.mqueueMessages('contract-queued', { limit: 1 })
    expect(first.data).toHaveLength(1)
    expect((await console.clients.mqueueMessages('contract-queued', { position: String(first.meta.position) })).data).toHaveLength(2)
    expect((await console.clients.inflightMessages('contract-inflight')).data.map((m) => m.topic)).toEqual(['contract/inflight'])
    await suite.api.delete('/clients/contract-queued')
  })
})
