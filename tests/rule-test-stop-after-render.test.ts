// /rules/{id}/test of a rule sending to a data-integration action (a real HTTP action and node:http
// server): by default the action renders and stops, as 5.8 does (nothing is sent, the action counts it
// matched and failed, the rule a failed action of unknown cause); told not to stop, it sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHttpTarget, type HttpTarget } from './support/http-target.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()
let http: HttpTarget

beforeAll(async () => {
  http = await startHttpTarget()
})

afterAll(() => http.close())

const context = { event_type: 'message_publish', topic: 't/1', payload: '{"msg":"hello"}', clientid: 'c', username: 'u', qos: 1 }

describe('/rules/{id}/test with a data-integration action', () => {
  it('stops the action after rendering unless told not to', async () => {
    await suite.api.post('/connectors', { type: 'http', name: 'hook', url: http.url })
    await suite.api.post('/actions', { type: 'http', name: 'hook', connector: 'hook', parameters: { body: '${payload.msg}' } })
    await suite.api.post('/rules', { id: 'to_hook', sql: 'SELECT payload FROM "t/#"', actions: ['http:hook'] })

    expect(await suite.api.post('/rules/to_hook/test', { context })).toEqual({ status: 200, body: ['ok'] })
    expect((await suite.api.get('/rules/to_hook/metrics')).body.metrics).toMatchObject({ 'actions.total': 1, 'actions.success': 0, 'actions.failed': 1, 'actions.failed.unknown': 1 })
    expect((await suite.api.get('/actions/http:hook/metrics')).body.metrics).toMatchObject({ matched: 1, failed: 1, success: 0 })

    expect(await suite.api.post('/rules/to_hook/test', { context, stop_action_after_template_rendering: false })).toEqual({ status: 200, body: ['ok'] })
    await waitFor(() => http.received.length === 1, 'the request sent')
    expect(http.received).toEqual(['hello'])
    await waitFor(async () => (await suite.api.get('/actions/http:hook/metrics')).body.metrics.success === 1, 'the send counted')
    expect((await suite.api.get('/rules/to_hook/metrics')).body.metrics).toMatchObject({ 'actions.total': 2, 'actions.success': 1, 'actions.failed': 1 })
  })
})
