// jq/2,3: EMQX runs jq in-process (the jq NIF); here the system's jq program runs the filter. Each
// output value becomes one list element. Without jq on PATH the call fails like a jq error does.
import { spawnSync } from 'node:child_process'
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { RuleFunctionError, int, jsonEncode, text } from './values.ts'

/** rule_engine.jq_function_default_timeout's default (10s). */
export const JQ_DEFAULT_TIMEOUT_MS = 10_000

export function jq(program: unknown, json: unknown, timeoutMs: unknown = JQ_DEFAULT_TIMEOUT_MS): unknown[] {
  const filter = text('jq', program)
  const input = typeof json === 'string' || json instanceof Uint8Array ? text('jq', json) : jsonEncode(json)
  const run = spawnSync('jq', ['-c', filter], { input, timeout: int('jq', timeoutMs), encoding: 'utf8' })
  const fail = (reason: string): never => {
    throw new RuleFunctionError('jq_exception', `jq_exception: ${reason}`)
  }
  if (run.error) {
    const code = (run.error as NodeJS.ErrnoException).code
    return fail(code === 'ETIMEDOUT' ? 'timeout' : code === 'ENOENT' ? 'jq is not installed' : run.error.message)
  }
  if (run.status !== 0) return fail(run.stderr.trim() || `jq exited with ${String(run.status)}`)
  return run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown)
}

export const jqFunctions: RuleFunctionGroup = {
  jq: ruleFn([2, 3], jq),
}
