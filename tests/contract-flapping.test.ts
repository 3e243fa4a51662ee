// The flapping detection contract (contract/flapping.ts) against the server's real answers, and the
// browser's API module reading them.
import { describe, expect, it } from 'vitest'
import { FlappingConfigSchema, flappingErrors, FlappingSettingsSchema } from '../contract/flapping.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

describe('flapping contract', () => {
  it('the settings the server writes are the contract, with its error', async () => {
    expectContract(FlappingConfigSchema, (await suite.api.get('/flapping_detect')).body, 'settings')
    const updated = expectContract(FlappingConfigSchema, (await suite.api.request('PUT', '/flapping_detect', { enable: true, max_count: 3 })).body, 'updated')
    expect(updated).toMatchObject({ enable: true, max_count: 3 })
    const zone = (await suite.api.get('/configs/global_zone')).body
    expectContract(FlappingSettingsSchema, zone.flapping_detect, 'global zone root')

    expectContractError(await suite.api.request('PUT', '/flapping_detect', { window_time: 'soon' }), flappingErrors.badRequest)
    expectContractError(await suite.api.request('PUT', '/flapping_detect', { max_count: 0 }), flappingErrors.badRequest)

    const console = await consoleApi(suite.t)
    expect((await console.flapping.get()).max_count).toBe(3)
    expect((await console.flapping.update({ ban_time: '10m' })).ban_time).toBe('10m')
    expect((await suite.api.get('/flapping_detect')).body.ban_time).toBe('10m')
  })
})
