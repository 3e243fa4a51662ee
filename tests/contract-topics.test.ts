// The topics contract (contract/topics.ts) against the server's real answers with real mqtt.js
// subscribers, and the browser's API module reading them.
import { describe, expect, it } from 'vitest'
import { TopicRecordListSchema, TopicRecordPageSchema, topicsErrors } from '../contract/topics.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

describe('topics contract', () => {
  it('the routes the server writes are the contract, with its errors', async () => {
    const a = await suite.t.connect({ clientId: 'contract-topics-a' })
    await a.subscribeAsync(['contract/topics/+/temp', '$share/g1/contract/topics/jobs'], { qos: 1 })
    const b = await suite.t.connect({ clientId: 'contract-topics-b' })
    await b.subscribeAsync('contract/topics/+/temp', { qos: 0 })

    const all = expectContract(TopicRecordPageSchema, (await suite.api.get('/topics')).body, 'list')
    // One route per filter, however many subscribe to it.
    expect(all.data.map((route) => route.topic).filter((topic) => topic.includes('contract/topics'))).toEqual([
      '$share/g1/contract/topics/jobs',
      'contract/topics/+/temp',
    ])
    const filtered = expectContract(TopicRecordPageSchema, (await suite.api.get(`/topics?topic=${encodeURIComponent('contract/topics/+/temp')}`)).body, 'filtered')
    expect(filtered.data).toEqual([{ topic: 'contract/topics/+/temp', node: all.data[0].node }])
    expectContract(TopicRecordPageSchema, (await suite.api.get('/topics?limit=1&page=2')).body, 'second page')

    const one = expectContract(TopicRecordListSchema, (await suite.api.get(`/topics/${encodeURIComponent('contract/topics/+/temp')}`)).body, 'one topic')
    expect(one.map((route) => route.topic)).toEqual(['contract/topics/+/temp'])

    const missing = await suite.api.get(`/topics/${encodeURIComponent('contract/none')}`)
    expectContractError(missing, topicsErrors.notFound)
    expect(missing.body.message).toBe(topicsErrors.notFound.message)
    expectContractError(await suite.api.get('/topics?node=nowhere@127.0.0.1'), topicsErrors.badRequest)
    expectContractError(await suite.api.get('/topics?page=0'), topicsErrors.badRequest)

    const console = await consoleApi(suite.t)
    expect((await console.topics.list({ topic: '$share/g1/contract/topics/jobs' })).data.map((route) => route.topic)).toEqual(['$share/g1/contract/topics/jobs'])
    expect(await console.topics.suggest('topics/+')).toEqual(['contract/topics/+/temp'])
  })
})
