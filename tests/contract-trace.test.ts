// The trace contract (contract/trace.ts) against the server's real answers, and the browser's API
// module (src/api/trace.ts) reading them.
import { describe, expect, it } from 'vitest'
import {
  TraceListSchema,
  TraceLogDetailSchema,
  TraceLogSchema,
  TraceSchema,
  TraceStoppedSchema,
  traceErrors,
  traceFilter,
} from '../contract/trace.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()

describe('trace contract', () => {
  it('the traces, log pages and details the server writes are the contract, with its errors', async () => {
    const end = new Date(Date.now() + 600_000).toISOString()
    const created = expectContract(TraceSchema, (await suite.api.post('/trace', { name: 'contractTrace', type: 'topic', topic: 'ct/#', end_at: end })).body, 'created')
    expect(traceFilter(created)).toBe('ct/#')
    expectContract(TraceSchema, (await suite.api.post('/trace', { name: 'contractJson', type: 'clientid', clientid: 'ct-client', formatter: 'json', payload_encode: 'hex' })).body, 'created json')
    const client = await suite.t.connect({ clientId: 'ct-client' })
    await client.publishAsync('ct/1', 'x', { qos: 1 })
    const list = expectContract(TraceListSchema, (await suite.api.get('/trace')).body, 'list')
    expect(list.map((trace) => trace.name).sort()).toEqual(['contractJson', 'contractTrace'])
    await waitFor(async () => (await suite.api.get('/trace/contractTrace/log')).body.items.includes('publish_to'), 'a line')
    expectContract(TraceLogSchema, (await suite.api.get('/trace/contractTrace/log?bytes=10&position=0')).body, 'log')
    expectContract(TraceLogDetailSchema, (await suite.api.get('/trace/contractTrace/log_detail')).body, 'log detail')
    expectContract(TraceStoppedSchema, (await suite.api.request('PUT', '/trace/contractJson/stop')).body, 'stopped')

    expectContractError(await suite.api.post('/trace', { name: '9', type: 'clientid', clientid: 'a' }), traceErrors.badRequest)
    expectContractError(await suite.api.post('/trace', { name: 'noFilter', type: 'clientid' }), traceErrors.invalidParams)
    expectContractError(await suite.api.post('/trace', { name: 'contractTrace', type: 'clientid', clientid: 'b' }), traceErrors.alreadyExists)
    const start = Math.floor(Date.now() / 1000)
    await suite.api.post('/trace', { name: 'first', type: 'clientid', clientid: 'same', start_at: start })
    expectContractError(await suite.api.post('/trace', { name: 'second', type: 'clientid', clientid: 'same', start_at: start }), traceErrors.duplicateCondition)
    expectContractError(await suite.api.delete('/trace/none'), traceErrors.notFound)
    expectContractError(await suite.api.get('/trace/none/log'), traceErrors.notFound)

    const console = await consoleApi(suite.t)
    expect((await console.trace.list()).map((trace) => trace.name).sort()).toEqual(['contractJson', 'contractTrace', 'first'])
    const page = await console.trace.log('contractTrace', { position: 0, bytes: 5 })
    expect(page.meta).toEqual({ position: 5, bytes: 5 })
    expect((await console.trace.logDetail('contractTrace'))[0].node).toBe('emqx@127.0.0.1')
    const zip = await console.trace.download('contractTrace')
    expect(Buffer.from(await zip.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]))
    const made = await console.trace.create({ name: 'fromConsole', type: 'ip_address', ip_address: '127.0.0.1', start_at: new Date().toISOString(), end_at: end })
    expect(made.status).toBe('running')
    await console.trace.stop('fromConsole')
    await console.trace.delete('fromConsole')
    await console.trace.clear()
    expect(await console.trace.list()).toEqual([])
  })
})
