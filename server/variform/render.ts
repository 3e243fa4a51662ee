// emqx_variform:compile/render: an expression parsed once (contract/variform.ts) and evaluated
// against a map of bindings to one string. An unbound variable fails the render, except inside
// coalesce, iif's condition and is_empty, where it reads as empty (as in 5.8).
import { parseVariform, type VariformArg, type VariformExpr } from '../../contract/variform.ts'
import { acceptsArity } from '../rules/functions/index.ts'
import { toText } from '../rules/functions/values.ts'
import { VariformError, variformFunctions } from './functions.ts'

export { VariformError } from './functions.ts'

export interface CompiledVariform {
  readonly expression: string
  readonly form: VariformExpr
}

/** Compiles an expression; throws VariformSyntaxError with 5.8's reason. */
export function compileVariform(expression: string): CompiledVariform {
  return { expression, form: parseVariform(expression) }
}

export type RenderResult = { ok: true; value: string } | { ok: false; reason: string }

const isEmpty = (v: unknown) => v === '' || v === undefined || v === null || (v instanceof Uint8Array && v.length === 0)

export function renderVariform(compiled: CompiledVariform, bindings: Record<string, unknown>): RenderResult {
  try {
    return { ok: true, value: returnStr(evaluate(compiled.form, bindings)) }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
}

function returnStr(value: unknown): string {
  if (isEmpty(value)) return ''
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8')
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return toText(value)
  throw new VariformError('bad_return', { expected: 'string', got: JSON.stringify(value) })
}

function lookupVar(name: string, bindings: Record<string, unknown>): unknown {
  let value: unknown = bindings
  for (const key of name.split('.').filter((part) => part !== '')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, key)) {
      throw new VariformError('var_unbound', { var_name: name })
    }
    value = (value as Record<string, unknown>)[key]
  }
  return isEmpty(value) ? '' : value
}

function evaluate(node: VariformArg, bindings: Record<string, unknown>): unknown {
  switch (node.kind) {
    case 'str':
    case 'int':
    case 'bool':
      return node.value
    case 'array':
      return node.items.map((item) => evaluate(item, bindings))
    case 'var':
      return lookupVar(node.name, bindings)
    case 'call':
      return call(node.name, node.args, bindings)
  }
}

/** An unbound variable reads as empty. */
function tryEvaluate(node: VariformArg, bindings: Record<string, unknown>): unknown {
  try {
    return evaluate(node, bindings)
  } catch (error) {
    if (error instanceof VariformError && error.reason === 'var_unbound') return ''
    throw error
  }
}

function coalesce(args: VariformArg[], bindings: Record<string, unknown>): unknown {
  if (args.length === 1 && args[0].kind !== 'array') {
    const value = tryEvaluate(args[0], bindings)
    if (Array.isArray(value)) return value.find((item) => !isEmpty(item)) ?? ''
    if (value === '') return ''
    throw new VariformError('coalesce_badarg', { explain: 'the arg expression did not yield an array' })
  }
  return coalesceLoop(args.length === 1 && args[0].kind === 'array' ? args[0].items : args, bindings)
}

function coalesceLoop(items: VariformArg[], bindings: Record<string, unknown>): unknown {
  for (const item of items) {
    const value = tryEvaluate(item, bindings)
    if (!isEmpty(value)) return value
  }
  return ''
}

function functionName(name: string): string {
  const parts = name.split('.')
  if (parts.length === 1) return name
  if (parts.length > 2) throw new VariformError('invalid_function_reference', { function: name })
  // emqx_variform_bif is the one module here; 5.8 also allows Erlang's lists and maps, which have no counterpart.
  if (parts[0] !== 'emqx_variform_bif') throw new VariformError('unallowed_variform_module', { module: parts[0] })
  return parts[1]
}

function call(name: string, args: VariformArg[], bindings: Record<string, unknown>): unknown {
  const fn = functionName(name)
  if (fn === 'coalesce') return coalesce(args, bindings)
  if (fn === 'is_empty' && args.length === 1) return isEmpty(coalesceLoop(args, bindings))
  if (fn === 'iif' && args.length === 3) {
    const cond = tryEvaluate(args[0], bindings)
    const met = cond === true ? true : cond === false ? false : !isEmpty(cond)
    return evaluate(met ? args[1] : args[2], bindings)
  }
  const impl = variformFunctions.get(fn)
  if (!impl || !acceptsArity(impl, args.length)) {
    throw new VariformError('unknown_variform_function', { module: 'emqx_variform_bif', function: fn, arity: args.length })
  }
  return impl.impl(...args.map((arg) => evaluate(arg, bindings)))
}
