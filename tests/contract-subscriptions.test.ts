// The subscriptions contract (contract/subscriptions.ts) against the server's real answers with real
// mqtt.js subscribers, and the browser's API module reading them.
import { describe, expect, it } from 'vitest'
import { SubscriptionRecordPageSchema, SubscriptionRecordSchema, subscriptionsErrors } from '../contract/subscriptions.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

const list = async (query: string, what: string) =>
  expectContract(SubscriptionRecordPageSchema, (await suite.api.get(`/subscriptions${query}`)).body, what)

describe('subscriptions contract', () => {
  it('the pages the server writes are the contract, under every filter, with its error', async () => {
    const a = await suite.t.connect({ clientId: 'contract-sub-a', protocolVersion: 5 })
    await a.subscribeAsync('contract/sensors/+/temp', { qos: 1, nl: true, rap: true, rh: 2 })
    await a.subscribeAsync('$share/g1/contract/jobs', { qos: 2 })
    const b = await suite.t.connect({ clientId: 'contract-sub-b' })
    await b.subscribeAsync('contract/sensors/+/temp', { qos: 0 })

    const all = await list('', 'list')
    expect(all.data.filter((row) => row.clientid.startsWith('contract-sub-'))).toHaveLength(3)
    const shared = all.data.find((row) => row.topic === '$share/g1/contract/jobs')
    expect(shared).toMatchObject({ clientid: 'contract-sub-a', qos: 2, share_group: 'g1' })
    const options = all.data.find((row) => row.clientid === 'contract-sub-a' && row.topic === 'contract/sensors/+/temp')
    expect(options).toMatchObject({ nl: 1, rap: 1, rh: 2, qos: 1, durable: false })

    expect((await list('?clientid=contract-sub-b', 'by clientid')).data.map((row) => row.topic)).toEqual(['contract/sensors/+/temp'])
    expect((await list(`?topic=${encodeURIComponent('contract/sensors/+/temp')}`, 'by topic')).data).toHaveLength(2)
    expect((await list('?qos=2', 'by qos')).data.map((row) => row.topic)).toEqual(['$share/g1/contract/jobs'])
    expect((await list('?share_group=g1', 'by share group')).data.map((row) => row.clientid)).toEqual(['contract-sub-a'])
    expect((await list(`?match_topic=${encodeURIComponent('contract/sensors/#')}`, 'by match_topic')).data).toHaveLength(2)
    const page = await list('?clientid=contract-sub-a&limit=1&page=2', 'second page')
    expect(page.meta).toEqual({ page: 2, limit: 1, count: 2, hasnext: false })

    // A client's own subscriptions are the same record.
    for (const row of (await suite.api.get('/clients/contract-sub-a/subscriptions')).body) expectContract(SubscriptionRecordSchema, row, 'client subscription')

    expectContractError(await suite.api.get('/subscriptions?qos=3'), subscriptionsErrors.badRequest)
    expectContractError(await suite.api.get(`/subscriptions?match_topic=${encodeURIComponent('a/#/b')}`), subscriptionsErrors.badRequest)
    expectContractError(await suite.api.get('/subscriptions?node=nowhere@127.0.0.1'), subscriptionsErrors.badRequest)
    expectContractError(await suite.api.get('/subscriptions?limit=0'), subscriptionsErrors.badRequest)

    const console = await consoleApi(suite.t)
    const read = await console.subscriptions.list({ clientid: 'contract-sub-a' })
    expect(read.data.map((row) => row.topic).sort()).toEqual(['$share/g1/contract/jobs', 'contract/sensors/+/temp'])
    expect((await console.subscriptions.list({ share_group: 'g1' })).data[0].share_group).toBe('g1')
    expect((await console.subscriptions.list({ match_topic: 'contract/#', qos: 0 })).data.map((row) => row.clientid)).toEqual(['contract-sub-b'])
  })
})
