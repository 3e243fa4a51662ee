// The SQL evaluator with EMQX's built-in functions: the first rule, a string function, a
// nested call, and an arity the function does not have. (How message functions such as clientid()
// read a rule's event is settled when the engine is wired: EMQX's read the message's `from`.)
import { describe, expect, it } from 'vitest'
import { compileRule } from '../server/rules/sql/index.ts'
import { sqlFunctions } from '../server/rules/sql-functions.ts'

const publish = (payload: string) => ({ event: 'message.publish', id: '1', clientid: 'c1', username: 'u1', topic: 'sensors/a', qos: 1, payload, timestamp: 1_700_000_000_000 })

describe('rule SQL with the built-in functions', () => {
  it('SELECT payload.temp AS t FROM "sensors/#" WHERE t > 30', () => {
    const rule = compileRule('SELECT payload.temp AS t FROM "sensors/#" WHERE t > 30', sqlFunctions)
    expect(rule.from).toEqual(['sensors/#'])
    expect(rule.run(publish('{"temp": 31}'))).toEqual({ t: 31 })
    expect(rule.run(publish('{"temp": 20}'))).toBe('nomatch')
  })

  it('calls functions by name, nested', () => {
    const rule = compileRule("SELECT upper(payload.name) AS n, strlen(concat(n, '-1')) AS l FROM \"sensors/#\" WHERE n = 'ABC'", sqlFunctions)
    expect(rule.run(publish('{"name": "abc"}'))).toEqual({ n: 'ABC', l: 5 })
  })

  it('refuses an unknown function when compiled and a wrong arity when run', () => {
    expect(() => compileRule('SELECT no_such_fn(1) FROM "t"', sqlFunctions)).toThrow(/sql_function_not_supported|no_such_fn/)
    expect(() => compileRule('SELECT upper(payload, 1, 2) AS x FROM "t"', sqlFunctions).run(publish('a'))).toThrow()
  })
})
