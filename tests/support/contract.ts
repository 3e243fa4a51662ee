// Holds a real answer of the server against a contract schema: it must parse, and the schema must
// keep every field the server wrote (v.object drops unknown keys, so a field missing from the
// contract shows as a difference).
import { expect } from 'vitest'
import * as v from 'valibot'

export function expectContract<S extends v.GenericSchema>(schema: S, body: unknown, what: string): v.InferOutput<S> {
  const result = v.safeParse(schema, body)
  if (!result.success) expect.fail(`${what}: ${result.issues.map((issue) => `${v.getDotPath(issue) ?? ''} ${issue.message}`).join('; ')}`)
  expect(result.output, `${what}: every field the server writes is in the contract`).toEqual(body)
  return result.output
}

/** An error answer with a contract error's status and code (`{status, code}` in contract/<area>.ts). */
export function expectContractError(response: { status: number; body: { code: string } }, error: { status: number; code: string }): void {
  expect({ status: response.status, code: response.body.code }).toEqual({ status: error.status, code: error.code })
}
