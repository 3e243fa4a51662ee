// GET /error_codes and /error_codes/{code}: 5.8.9's codes and descriptions, public, and a name outside
// the list refused as 5.8's path validation refuses it.
import { describe, expect, it } from 'vitest'
import { ERROR_CODES, ErrorCodeListSchema, ErrorCodeSchema, errorCodeErrors } from '../contract/error-codes.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

describe('error codes', () => {
  it('lists every code of 5.8.9 in its order with its description, without credentials', async () => {
    const answer = await suite.t.raw('/error_codes')
    expect(answer.status).toBe(200)
    const list = expectContract(ErrorCodeListSchema, answer.body, 'list')
    expect(list).toHaveLength(31)
    expect(list[0]).toEqual({ code: 'BAD_USERNAME_OR_PWD', description: 'Bad username or password' })
    expect(list.at(-1)).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', description: 'Unsupported media type' })
    expect(list.map((entry) => entry.code)).toEqual(ERROR_CODES.map(([code]) => code))
  })

  it('answers one code by its name', async () => {
    const answer = await suite.t.raw('/error_codes/CLIENT_NOT_FOUND')
    expect(answer.status).toBe(200)
    expect(expectContract(ErrorCodeSchema, answer.body, 'one')).toEqual({
      code: 'CLIENT_NOT_FOUND',
      description: 'Client was not found or does not exist(usually not a MQTT client)',
    })
  })

  it('refuses a name that is not a code with the path validation error', async () => {
    const unknown = await suite.t.raw('/error_codes/NO_SUCH_CODE')
    expectContractError(unknown, errorCodeErrors.notInEnum)
    expect(JSON.parse(unknown.body.message)).toEqual({ kind: 'validation_error', path: 'code', reason: 'unable_to_convert_to_enum_symbol', value: 'NO_SUCH_CODE' })
    const integer = await suite.t.raw('/error_codes/42')
    expect(JSON.parse(integer.body.message)).toMatchObject({ reason: 'not_a_enum_symbol', value: 42 })
    // Names are case-sensitive, as the atoms are.
    expect((await suite.t.raw('/error_codes/not_found')).status).toBe(400)
  })
})
