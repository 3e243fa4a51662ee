// The auto subscribe contract (contract/auto-subscribe.ts) against the server's real answers, and
// the browser's API module reading them.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  AutoSubscribeListSchema,
  autoSubscribeErrors,
  AutoSubscribeResponseSchema,
  MAX_AUTO_SUBSCRIBE,
} from '../contract/auto-subscribe.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

describe('auto subscribe contract', () => {
  it('the topics the server writes are the contract, with its errors', async () => {
    expectContract(AutoSubscribeListSchema, (await suite.api.get('/mqtt/auto_subscribe')).body, 'empty list')
    const replaced = expectContract(
      AutoSubscribeListSchema,
      (await suite.api.request('PUT', '/mqtt/auto_subscribe', [{ topic: 'contract/${clientid}', qos: 1 }, { topic: 'contract/all', rh: 2, nl: 1 }])).body,
      'replaced',
    )
    expect(replaced.map((t) => t.topic)).toEqual(['contract/${clientid}', 'contract/all'])
    const list = expectContract(AutoSubscribeListSchema, (await suite.api.get('/mqtt/auto_subscribe')).body, 'list')
    expect(v.is(AutoSubscribeResponseSchema, list)).toBe(true)

    expectContractError(await suite.api.request('PUT', '/mqtt/auto_subscribe', [{ topic: '' }]), autoSubscribeErrors.badRequest)
    expectContractError(await suite.api.request('PUT', '/mqtt/auto_subscribe', [{ topic: 'a', qos: 3 }]), autoSubscribeErrors.badRequest)
    const tooMany = Array.from({ length: MAX_AUTO_SUBSCRIBE + 1 }, (_, n) => ({ topic: `contract/${n}` }))
    expectContractError(await suite.api.request('PUT', '/mqtt/auto_subscribe', tooMany), autoSubscribeErrors.exceedLimit)

    const console = await consoleApi(suite.t)
    expect((await console.autoSubscribe.list()).map((t) => t.topic)).toEqual(['contract/${clientid}', 'contract/all'])
    expect(await console.autoSubscribe.replace([{ topic: 'contract/one', qos: 2, nl: 0, rap: 0, rh: 0 }])).toEqual([{ topic: 'contract/one', qos: 2, nl: 0, rap: 0, rh: 0 }])
    await console.autoSubscribe.replace([])
  })
})
