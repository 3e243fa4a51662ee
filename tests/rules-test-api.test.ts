// POST /rule_test and POST /rules/{id}/test as EMQX 5.8 answers them, against the real server: the
// selected output, 412 SQL Not Match (FROM or WHERE), failures worded as 5.8 words them, defaults
// filled from the event's examples, and a saved rule's outputs stopped after rendering or run.
import { describe, expect, it } from 'vitest'
import { collect, serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()

const publishContext = (fields: Record<string, unknown> = {}) => ({
  event_type: 'message_publish',
  clientid: 'c_emqx',
  username: 'u_emqx',
  payload: '{"msg": "hello"}',
  qos: 1,
  topic: 't/a',
  ...fields,
})

const ruleTest = (sql: string, context: Record<string, unknown>) => suite.api.post('/rule_test', { sql, context })

describe('/rule_test', () => {
  it('answers the selected output of a message_publish event', async () => {
    const response = await ruleTest('SELECT payload.msg as msg, clientid, username, payload, topic, qos FROM "t/#"', publishContext())
    expect(response).toEqual({
      status: 200,
      body: { msg: 'hello', clientid: 'c_emqx', username: 'u_emqx', payload: '{"msg": "hello"}', topic: 't/a', qos: 1 },
    })
  })

  it('fills the fields the context leaves out from the event examples, and names the run sql_tester:', async () => {
    const response = await ruleTest('SELECT * FROM "t/#"', { event_type: 'message_publish', topic: 't/b' })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ topic: 't/b', clientid: 'c_emqx', username: 'u_emqx', qos: 1, event: 'message.publish', node: 'emqx@127.0.0.1' })
    expect(response.body.metadata.rule_id).toMatch(/^sql_tester:/)
  })

  it('answers 412 SQL Not Match when the topic is not in FROM or WHERE says no', async () => {
    const notMatch = { status: 412, body: { code: 'NOT_MATCH', message: 'SQL Not Match' } }
    expect(await ruleTest('SELECT * FROM "t/#"', publishContext({ topic: 'a' }))).toEqual(notMatch)
    expect(await ruleTest('SELECT * FROM "$events/message_published"', publishContext())).toEqual(notMatch)
    expect(await ruleTest('SELECT * FROM "t/#" WHERE qos = 2', publishContext())).toEqual(notMatch)
    expect((await ruleTest('SELECT * FROM "t/#", "$bridges/mqtt:source"', publishContext())).status).toBe(200)
  })

  it('words failures as 5.8: the phase and reason of a run, the parser line of a bad SQL', async () => {
    expect(await ruleTest('SELECT\n  payload.msg\nFROM\n  "t/#"', publishContext({ payload: '{"msg": "hel' }))).toEqual({
      status: 400,
      body: { code: 'BAD_REQUEST', message: '{"select_and_transform_error":"decode_json_failed"}' },
    })
    expect(await ruleTest('SELECT\n  payload.msg > 1\nFROM\n  "t/#"', publishContext())).toEqual({
      status: 400,
      body: { code: 'BAD_REQUEST', message: '{"select_and_transform_error":"badarg"}' },
    })
    const bad = await ruleTest('BAD_SQL', publishContext())
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/syntax error/)
    const unknown = await ruleTest('SELECT nope(1) FROM "t/#"', publishContext())
    expect(unknown.status).toBe(400)
    expect(JSON.parse(unknown.body.message)).toEqual({ select_and_transform_error: { function: 'nope', module: 'emqx_rule_funcs', reason: 'sql_function_not_supported' } })
  })

  it('answers an array for FOREACH', async () => {
    const response = await ruleTest('FOREACH payload.xs AS x DO x * 2 AS y FROM "t/#"', publishContext({ payload: '{"xs": [1, 2]}' }))
    expect(response).toEqual({ status: 200, body: [{ y: 2 }, { y: 4 }] })
  })
})

describe('/rules/{id}/test', () => {
  it('runs the saved rule: outputs stopped after rendering by default, run when told not to stop', async () => {
    await suite.api.post('/rules', {
      id: 'apply',
      sql: 'SELECT payload.msg AS msg FROM "t/#"',
      actions: [{ function: 'republish', args: { topic: 'applied/${msg}' } }],
    })
    const client = await suite.t.connect()
    const messages = collect(client)
    await client.subscribeAsync('applied/#')
    const stopped = await suite.api.post('/rules/apply/test', { context: publishContext() })
    expect(stopped).toEqual({ status: 200, body: ['ok'] })
    const metrics = (await suite.api.get('/rules/apply/metrics')).body.metrics
    expect(metrics).toMatchObject({ matched: 1, passed: 1, 'actions.total': 1, 'actions.failed': 1, 'actions.failed.unknown': 1 })
    expect(messages).toEqual([])
    const ran = await suite.api.post('/rules/apply/test', { context: publishContext(), stop_action_after_template_rendering: false })
    expect(ran).toEqual({ status: 200, body: ['ok'] })
    await waitFor(() => messages.length === 1, 'the republished message')
    expect(messages[0].topic).toBe('applied/hello')
  })

  it('answers 404 RULE_NOT_FOUND, 412 for a topic outside FROM, 400 for a failed run', async () => {
    await suite.api.post('/rules', { id: 'apply2', sql: 'SELECT payload.msg AS msg FROM "t/#"' })
    expect(await suite.api.post('/rules/none/test', { context: publishContext() })).toEqual({
      status: 404,
      body: { code: 'RULE_NOT_FOUND', message: 'The rule could not be found' },
    })
    expect((await suite.api.post('/rules/apply2/test', { context: publishContext({ topic: 'x/y' }) })).status).toBe(412)
    expect(await suite.api.post('/rules/apply2/test', { context: publishContext({ payload: 'nope' }) })).toEqual({
      status: 400,
      body: { code: 'BAD_REQUEST', message: '{"select_and_transform_error":"decode_json_failed"}' },
    })
  })
})
