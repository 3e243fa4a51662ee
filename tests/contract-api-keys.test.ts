// The API keys contract (contract/api-keys.ts) against the server's real answers, and the browser's
// API module reading them.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  apiKeySchema,
  ApiKeyRecordListSchema,
  ApiKeyRecordSchema,
  apiKeysErrors,
  createdApiKeySchema,
  CreatedApiKeyRecordSchema,
} from '../contract/api-keys.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

describe('api keys contract', () => {
  it('the keys the server writes are the contract, with its errors', async () => {
    const created = expectContract(CreatedApiKeyRecordSchema, (await suite.api.post('/api_key', { name: 'contract-key', desc: 'contract' })).body, 'created')
    expect(created.expired_at).toBe('infinity')
    expect(v.is(createdApiKeySchema, created)).toBe(true)
    const until = new Date(Date.now() + 3_600_000).toISOString()
    expectContract(CreatedApiKeyRecordSchema, (await suite.api.post('/api_key', { name: 'contract-until', expired_at: until })).body, 'created with expiry')
    const list = expectContract(ApiKeyRecordListSchema, (await suite.api.get('/api_key')).body, 'list')
    expect(list.map((key) => key.name).sort()).toEqual(['contract-key', 'contract-until'])
    const one = expectContract(ApiKeyRecordSchema, (await suite.api.get('/api_key/contract-key')).body, 'get')
    expect(one).not.toHaveProperty('api_secret')
    expect(v.is(apiKeySchema, one)).toBe(true)
    const updated = expectContract(ApiKeyRecordSchema, (await suite.api.request('PUT', '/api_key/contract-key', { enable: false, desc: 'off' })).body, 'updated')
    expect(updated).toMatchObject({ enable: false, desc: 'off' })

    expectContractError(await suite.api.post('/api_key', { name: 'contract-key' }), apiKeysErrors.badRequest)
    expectContractError(await suite.api.post('/api_key', { name: '-bad name' }), apiKeysErrors.badRequest)
    expectContractError(await suite.api.post('/api_key', { name: 'contract-past', expired_at: '2000-01-01T00:00:00Z' }), apiKeysErrors.badRequest)
    expectContractError(await suite.api.post('/api_key', { name: 'contract-when', expired_at: 'someday' }), apiKeysErrors.badRequest)
    expectContractError(await suite.api.get('/api_key/contract-none'), apiKeysErrors.notFound)
    expectContractError(await suite.api.request('PUT', '/api_key/contract-none', { enable: true }), apiKeysErrors.notFound)
    expectContractError(await suite.api.delete('/api_key/contract-none'), apiKeysErrors.notFound)

    const console = await consoleApi(suite.t)
    expect((await console.apiKeys.list()).map((key) => key.name).sort()).toEqual(['contract-key', 'contract-until'])
    const made = await console.apiKeys.create({ name: 'contract-browser' })
    expect(made.api_secret).not.toBe('')
    expect((await console.apiKeys.get('contract-until')).expired_at).not.toBe('infinity')
    expect((await console.apiKeys.update('contract-until', { desc: 'kept' })).expired_at).not.toBe('infinity')
    for (const name of ['contract-key', 'contract-until', 'contract-browser']) await console.apiKeys.delete(name)
    expect((await suite.api.get('/api_key')).body).toEqual([])
  })
})
