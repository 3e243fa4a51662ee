// The publish contract (contract/publish.ts) against the server's real answers, and the browser's
// API module reading them.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  NoSubscribersSchema,
  PUBLISH_REASON_CODES,
  PublishBulkAnswerSchema,
  publishErrors,
  PublishedSchema,
  PublishRefusedSchema,
  publishResultSchema,
} from '../contract/publish.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

describe('publish contract', () => {
  it('the answers the server writes are the contract, with its reason codes and error', async () => {
    const subscriber = await suite.t.connect({ clientId: 'contract-publish-sub', protocolVersion: 5 })
    await subscriber.subscribeAsync('contract/publish/#', { qos: 1 })

    const delivered = await suite.api.post('/publish', { topic: 'contract/publish/a', payload: 'x', qos: 1, properties: { user_properties: { k: 'v' } } })
    expect(delivered.status).toBe(200)
    expect(v.is(publishResultSchema, expectContract(PublishedSchema, delivered.body, 'delivered'))).toBe(true)
    const unmatched = await suite.api.post('/publish', { topic: 'contract/nobody', payload: 'x' })
    expect(unmatched.status).toBe(202)
    expect(expectContract(NoSubscribersSchema, unmatched.body, 'no subscriber').reason_code).toBe(PUBLISH_REASON_CODES.noMatchingSubscribers)

    const bulk = await suite.api.post('/publish/bulk', [{ topic: 'contract/publish/b' }, { topic: 'contract/nobody' }])
    expect(bulk.status).toBe(202)
    expect(expectContract(PublishBulkAnswerSchema, bulk.body, 'partial bulk').map((r) => 'id' in r)).toEqual([true, false])
    const all = await suite.api.post('/publish/bulk', [{ topic: 'contract/publish/c' }, { topic: 'contract/publish/d' }])
    expect(all.status).toBe(200)
    expectContract(PublishBulkAnswerSchema, all.body, 'bulk')

    const wildcard = await suite.api.post('/publish', { topic: 'contract/+' })
    expectContractError(wildcard, publishErrors.badRequest)
    expect(expectContract(PublishRefusedSchema, wildcard.body, 'refused topic').reason_code).toBe(PUBLISH_REASON_CODES.topicNameInvalid)
    const base64 = await suite.api.post('/publish', { topic: 'contract/publish/e', payload: '%%', payload_encoding: 'base64' })
    expect(expectContract(PublishRefusedSchema, base64.body, 'refused payload').reason_code).toBe(PUBLISH_REASON_CODES.implementationSpecificError)
    const refusedBulk = await suite.api.post('/publish/bulk', [{ topic: 'contract/publish/f' }, { topic: 'contract/#' }])
    expectContractError(refusedBulk, publishErrors.badRequest)
    expectContract(PublishRefusedSchema, refusedBulk.body, 'refused bulk')
    expectContractError(await suite.api.post('/publish', { payload: 'no topic' }), publishErrors.badRequest)
    expectContractError(await suite.api.post('/publish', { topic: 'contract/publish/g', qos: 3 }), publishErrors.badRequest)
    expectContractError(await suite.api.post('/publish/bulk', []), publishErrors.badRequest)

    const console = await consoleApi(suite.t)
    expect((await console.publish.one({ topic: 'contract/publish/h', payload: 'x' })).id).toBeTypeOf('string')
    expect((await console.publish.one({ topic: 'contract/nobody', payload: 'x' })).reason_code).toBe(PUBLISH_REASON_CODES.noMatchingSubscribers)
    expect((await console.publish.bulk([{ topic: 'contract/publish/i', payload: 'x' }, { topic: 'contract/nobody', payload: 'y' }])).map((r) => r.reason_code)).toEqual([undefined, 16])
  })
})
