// rule.test against the real server: a SQL dry run on an event of the picked type with a JSON
// context (POST /rule_test), a saved rule replayed (POST /rules/{id}/test), the event that does
// not match said in SPEC 8's words, the parser's errors as the server words them.
import { describe, expect, it } from 'vitest'
import { ApiError } from '../contract/api-error.ts'
import { CommandError } from '../commands/commandError.ts'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'

const suite = consoleSuite()

async function failure(id: string, raw: Record<string, unknown>): Promise<unknown> {
  try {
    await runCommand(suite.api, id, raw)
  } catch (error) {
    return error
  }
  throw new Error('expected the command to fail')
}

describe('rule.test', () => {
  it('answers what the SQL selects from a message publish context typed as JSON', async () => {
    const output = await runCommand(suite.api, 'rule.test', {
      sql: 'SELECT payload.temp AS t, clientid FROM "sensors/#" WHERE t > 30',
      context: JSON.stringify({ topic: 'sensors/1', clientid: 'c1', payload: '{"temp": 31}' }),
    })
    expect(output).toEqual({ t: 31, clientid: 'c1' })
  })

  it('answers an array for FOREACH', async () => {
    const output = await runCommand(suite.api, 'rule.test', {
      sql: 'FOREACH payload.sensors AS s DO s.name AS name INCASE s.idx >= 1 FROM "t/#"',
      context: JSON.stringify({ topic: 't/a', payload: JSON.stringify({ sensors: [{ name: 'a', idx: 0 }, { name: 'b', idx: 1 }] }) }),
    })
    expect(output).toEqual([{ name: 'b' }])
  })

  it('tests the event type it is given, with an empty context when none is typed', async () => {
    const output = (await runCommand(suite.api, 'rule.test', { sql: 'SELECT event FROM "$events/client_connected"', event_type: 'client_connected' })) as Record<string, unknown>
    expect(output.event).toBe('client.connected')
  })

  it("says the data source does not match the SQL when WHERE or FROM rejects the event", async () => {
    const where = await failure('rule.test', { sql: 'SELECT * FROM "t/#" WHERE payload.x > 1', context: '{"topic": "t/a", "payload": "{\\"x\\": 0}"}' })
    expect(where).toBeInstanceOf(CommandError)
    expect((where as CommandError).text.key).toBe('ruleSql.notMatch')
    const from = await failure('rule.test', { sql: 'SELECT * FROM "other/#"', context: '{"topic": "t/a"}' })
    expect((from as CommandError).text.key).toBe('ruleSql.notMatch')
  })

  it("passes on the parser's error with the line and the token it stopped before", async () => {
    const error = await failure('rule.test', { sql: 'SELECT a,\nFROM "t/#"', context: '{"topic": "t/a"}' })
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: "2: syntax error before: 'FROM'" })
  })

  it('refuses a context that is not JSON and an event type /rule_test does not take', () => {
    expect(invalidArgs('rule.test', { sql: 'SELECT * FROM "t/#"', context: '{topic: t}' })).toEqual(['context:err.json'])
    expect(invalidArgs('rule.test', { sql: 'SELECT * FROM "t/#"', event_type: 'message.publish' })).toEqual(['event_type:err.oneOf'])
  })

  it('asks for a SQL or a rule id', async () => {
    const error = await failure('rule.test', {})
    expect((error as CommandError).text.key).toBe('cmd.rule.testNeedsSql')
  })

  it('replays the event through a saved rule by its id', async () => {
    const rule = await suite.api.rules.create({ sql: 'SELECT payload.x AS x FROM "t/#" WHERE x > 1', actions: [{ function: 'console' }] })
    try {
      expect(await runCommand(suite.api, 'rule.test', { id: rule.id, context: '{"topic": "t/a", "payload": "{\\"x\\": 2}"}' })).toBeDefined()
      const miss = await failure('rule.test', { id: rule.id, context: '{"topic": "t/a", "payload": "{\\"x\\": 0}"}' })
      expect((miss as CommandError).text.key).toBe('ruleSql.notMatch')
    } finally {
      await suite.api.rules.delete(rule.id)
    }
  })
})
