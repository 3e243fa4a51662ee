// The slow subscriptions contract (contract/slow-subs.ts) against the server's real answers, and the
// browser's API module reading them.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { SlowSubsConfigSchema, slowSubsErrors, SlowSubsListSchema, SlowSubsSettingsSchema } from '../contract/slow-subs.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()

describe('slow subscriptions contract', () => {
  it('the settings and the list the server writes are the contract, with its error', async () => {
    const settings = expectContract(SlowSubsConfigSchema, (await suite.api.get('/slow_subscriptions/settings')).body, 'settings')
    expect(v.is(SlowSubsSettingsSchema, settings)).toBe(true)
    expectContract(SlowSubsConfigSchema, (await suite.api.request('PUT', '/slow_subscriptions/settings', { enable: true, threshold: '100ms' })).body, 'updated')

    // A subscriber that acknowledges 300 ms late is recorded.
    const slow = await suite.t.connect({ clientId: 'contract-slow', protocolVersion: 5 }, (c) => {
      c.handleMessage = (_packet, callback) => void setTimeout(() => callback(), 300)
    })
    await slow.subscribeAsync('contract/slow', { qos: 1 })
    const publisher = await suite.t.connect({ clientId: 'contract-slow-pub' })
    await publisher.publishAsync('contract/slow', 'x', { qos: 1 })
    await waitFor(async () => (await suite.api.get('/slow_subscriptions')).body.data.length > 0, 'a slow subscription')
    const list = expectContract(SlowSubsListSchema, (await suite.api.get('/slow_subscriptions')).body, 'list')
    expect(list.data[0]).toMatchObject({ clientid: 'contract-slow', topic: 'contract/slow' })

    expectContractError(await suite.api.request('PUT', '/slow_subscriptions/settings', { threshold: '50ms' }), slowSubsErrors.badRequest)
    expectContractError(await suite.api.request('PUT', '/slow_subscriptions/settings', { expire_interval: 'later' }), slowSubsErrors.badRequest)
    expectContractError(await suite.api.request('PUT', '/slow_subscriptions/settings', { top_k_num: 0 }), slowSubsErrors.badRequest)

    const console = await consoleApi(suite.t)
    expect((await console.slowSubs.list()).data.map((r) => r.clientid)).toEqual(['contract-slow'])
    expect((await console.slowSubs.settings()).threshold).toBe('100ms')
    const current = await console.slowSubs.settings()
    expect((await console.slowSubs.updateSettings({ ...current, enable: false })).enable).toBe(false)
    await console.slowSubs.clear()
    expect((await suite.api.get('/slow_subscriptions')).body.data).toEqual([])
  })
})
