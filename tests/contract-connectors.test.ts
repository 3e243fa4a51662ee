// The data-integration contract (contract/connectors.ts) against the server's real answers, and the
// browser's API module (src/api/connectors.ts) reading them.
import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import {
  ActionInUseSchema,
  BRIDGE_METRIC_KEYS,
  BridgeMetricsResponseSchema,
  BridgeSchema,
  BridgeSummarySchema,
  ConnectorSchema,
  connectorErrors,
  nameError,
  parseResourceId,
  TypeListSchema,
} from '../contract/connectors.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { fixtureTarget, installFixtureType } from './support/fixture-integration.ts'
import { serverPerSuite } from './support/server.ts'

installFixtureType()
const suite = serverPerSuite()

describe('connectors contract', () => {
  it('ids and names follow emqx_resource', () => {
    expect(parseResourceId('http:my_hook-1')).toEqual({ type: 'http', name: 'my_hook-1' })
    expect(parseResourceId('http')).toEqual({ error: 'should be of pattern {type}:{name}, but got: http' })
    expect(parseResourceId('a:b:c')).toHaveProperty('error')
    expect(nameError('')).toBe('Name cannot be empty string')
    expect(nameError('x'.repeat(255))).toBe('Name length must be less than 255')
    expect(nameError('_x')).toMatch(/^Invalid name format/)
    expect(nameError('0ok_-')).toBeUndefined()
  })

  it('the answers the server writes are the contract, with its errors', async () => {
    const connector = expectContract(ConnectorSchema, (await suite.api.post('/connectors', { type: 'fixture', name: 'k', target: 'k' })).body, 'created connector')
    expect(connector.status).toBe('connected')
    expectContract(v.array(ConnectorSchema), (await suite.api.get('/connectors')).body, 'connector list')
    const action = expectContract(BridgeSchema, (await suite.api.post('/actions', { type: 'fixture', name: 'k', connector: 'k', parameters: { prefix: 'k' } })).body, 'created action')
    expect(action.rules).toEqual([])
    expectContract(BridgeSchema, (await suite.api.post('/sources', { type: 'fixture', name: 'k', connector: 'k', parameters: {} })).body, 'created source')
    const metrics = expectContract(BridgeMetricsResponseSchema, (await suite.api.get('/actions/fixture:k/metrics')).body, 'metrics')
    expect(Object.keys(metrics.metrics)).toEqual([...BRIDGE_METRIC_KEYS])
    expectContract(v.array(BridgeSummarySchema), (await suite.api.get('/actions_summary')).body, 'summary')
    expectContract(v.array(BridgeSummarySchema), (await suite.api.get('/sources_summary')).body, 'source summary')
    expectContract(TypeListSchema, (await suite.api.get('/action_types')).body, 'action types')
    expect((await suite.api.get('/action_types')).body).toEqual(expect.arrayContaining(['http', 'mqtt', 'fixture']))
    expect((await suite.api.get('/source_types')).body).toEqual(expect.arrayContaining(['mqtt', 'fixture']))

    expectContractError(await suite.api.post('/connectors', { type: 'fixture', name: 'k', target: 'k' }), connectorErrors.alreadyExists)
    expectContractError(await suite.api.post('/connectors', { type: 'fixture', name: 'bad name' }), connectorErrors.badRequest)
    expectContractError(await suite.api.get('/connectors/fixture:none'), connectorErrors.notFound)
    expectContractError(await suite.api.get('/sources/none'), connectorErrors.notFound)
    expect((await suite.api.get('/sources/none')).body.message).toMatch(/^Invalid bridge ID, /)
    expectContractError(await suite.api.request('PUT', '/sources/none', {}), connectorErrors.notFound)
    expect((await suite.api.request('PUT', '/sources/none', {})).body.message).toMatch(/^Invalid source ID, /)
    fixtureTarget('down').up = false
    expectContractError(await suite.api.post('/connectors_probe', { type: 'fixture', name: 'down', target: 'down' }), connectorErrors.testFailed)
    await suite.api.post('/rules', { id: 'uses_k', sql: 'SELECT * FROM "k"', actions: ['fixture:k'] })
    const inUse = await suite.api.delete('/actions/fixture:k')
    expectContract(ActionInUseSchema, inUse.body, 'action in use')

    const api = await consoleApi(suite.t)
    expect((await api.connectors.list()).map((c) => c.name)).toEqual(['k'])
    expect((await api.connectors.get('fixture:k')).actions).toEqual(['k'])
    expect((await api.connectors.actions.get('fixture:k')).rules).toEqual(['uses_k'])
    expect((await api.connectors.actions.metrics('fixture:k')).metrics.matched).toBe(0)
    expect((await api.connectors.sources.summary()).map((s) => s.name)).toEqual(['k'])
    await api.connectors.actions.enable('fixture:k', false)
    expect((await api.connectors.actions.get('fixture:k')).status).toBe('stopped')
    await expect(api.connectors.probe({ type: 'fixture', name: 'down', target: 'down' })).rejects.toMatchObject({ status: 400, code: 'TEST_FAILED' })
    await api.connectors.actions.delete('fixture:k', true)
    await api.connectors.sources.delete('fixture:k')
    await api.connectors.delete('fixture:k')
    expect(await api.connectors.list()).toEqual([])
  })
})
