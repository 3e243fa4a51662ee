// Compiles a parsed rule SQL into closures once; running them against an event follows
// emqx_rule_runtime (select_and_transform, select_and_collect, match_conditions, eval) and
// emqx_rule_maps (nested get/put with 1-based indexes).
import type { Expr, Field, PathExpr, Segment, Statement } from './ast.ts'
import { RuleSqlError } from './lexer.ts'
import { arith, compare, exactEqual, failIn, isObject, RuleEvalError, toBinary } from './values.ts'

type Obj = Record<string, unknown>
export type RuleFunction = (...args: unknown[]) => unknown

/** Where compileRule finds a function by name (a Map, or a lookup that answers for unknown names). */
export type FunctionLookup = Pick<ReadonlyMap<string, RuleFunction>, 'get'>
/** The event context (message_publish: id, clientid, username, payload, qos, topic, flags, ...). */
export type RuleContext = Obj

interface RunState {
  columns: Obj
  /** Where a name is looked up: `first`, then `second` (two fields, not an array: no allocation per phase). */
  first: Obj
  second: Obj | undefined
  /** true: the first layer holding the top key answers (maps:merge); false: fall back while undefined. */
  merged: boolean
  rawPayload: string | undefined
  decodedPayload: unknown
  stamp: number
}
type Compiled = (st: RunState) => unknown

const hasOwn = Object.hasOwn

function decodeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** maybe_decode_payload: the payload decoded once per run; a payload that is not JSON fails the rule. */
function payloadValue(value: unknown, st: RunState): unknown {
  if (typeof value !== 'string') return value
  if (value === st.rawPayload) return st.decodedPayload
  const decoded = decodeJson(value)
  if (decoded === undefined) throw new RuleEvalError('decode_json_failed', value)
  st.rawPayload = value
  st.decodedPayload = decoded
  return decoded
}

function nth(list: unknown[], index: unknown): unknown {
  if (typeof index !== 'number' || !Number.isInteger(index) || index === 0) return undefined
  return index > 0 ? list[index - 1] : list[list.length + index]
}

/** One general_find step; a string on the way is read as JSON. */
function step(value: unknown, seg: Segment, org: unknown): unknown {
  const data = typeof value === 'string' ? decodeJson(value) : value
  if ('key' in seg) return isObject(data) && hasOwn(data, seg.key) ? data[seg.key] : undefined
  if (!Array.isArray(data)) return undefined
  return nth(data, 'index' in seg ? seg.index : getPath(org, seg.indexOf.segments, 0))
}

function getPath(data: unknown, segments: Segment[], from: number): unknown {
  let value = data
  for (let i = from; i < segments.length && value !== undefined; i++) value = step(value, segments[i], data)
  return value
}

function lookupIn(layer: Obj, path: PathExpr, st: RunState): unknown {
  const segments = path.segments
  const first = (segments[0] as { key: string }).key
  if (!hasOwn(layer, first)) return undefined
  // eval's special case: `payload.x` decodes the payload (and indexes inside it resolve against it).
  if (first === 'payload' && segments.length > 1) return getPath(payloadValue(layer.payload, st), segments, 1)
  return getPath(layer, segments, 0)
}

function lookup(path: PathExpr, st: RunState): unknown {
  const { first, second } = st
  if (st.merged) {
    const key = (path.segments[0] as { key: string }).key
    if (hasOwn(first, key) || second === undefined) return lookupIn(first, path, st)
    return lookupIn(second, path, st)
  }
  const value = lookupIn(first, path, st)
  return value === undefined && second !== undefined ? lookupIn(second, path, st) : value
}

function scope(st: RunState, first: Obj, second: Obj | undefined, merged: boolean): void {
  st.first = first
  st.second = second
  st.merged = merged
}

function setNth(list: unknown, index: number | 'head' | 'tail', value: unknown): unknown[] {
  if (!Array.isArray(list)) return [value]
  if (index === 'head') return [value, ...list]
  if (index === 'tail') return [...list, value]
  const i = index > 0 ? index - 1 : list.length + index
  if (index === 0 || i < 0 || i >= list.length) return list
  const copy = list.slice()
  copy[i] = value
  return copy
}

/** emqx_rule_maps:do_nested_put, copying what it changes so the event context stays untouched. */
function putIn(data: unknown, segments: Segment[], i: number, value: unknown, org: Obj): unknown {
  if (i === segments.length) return value
  const seg = segments[i]
  if ('key' in seg) {
    const inner = putIn(step(data, seg, org), segments, i + 1, value, org)
    return isObject(data) ? { ...data, [seg.key]: inner } : { [seg.key]: inner }
  }
  const index = 'index' in seg ? seg.index : getPath(org, seg.indexOf.segments, 0)
  const target = typeof index === 'number' || index === 'head' || index === 'tail' ? index : undefined
  const sub = typeof target === 'number' && Array.isArray(data) ? nth(data, target) : undefined
  const inner = putIn(sub, segments, i + 1, value, org)
  if (target === undefined) return Array.isArray(data) ? data : [inner]
  return setNth(data, target, inner)
}

function setOwn(out: Obj, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
}

/** nested_put into the output, decoding a raw payload first when the alias goes into it. */
function put(out: Obj, segments: Segment[], value: unknown, st: RunState): void {
  const first = (segments[0] as { key: string }).key
  if (segments.length === 1) return setOwn(out, first, value)
  if (first === 'payload' && typeof out.payload === 'string') out.payload = payloadValue(out.payload, st)
  setOwn(out, first, putIn(hasOwn(out, first) ? out[first] : undefined, segments, 1, value, out))
}

function rangeList(begin: number, end: number): number[] {
  if (begin > end + 1) throw new RuleEvalError('function_clause', `lists:seq(${begin}, ${end})`)
  const list: number[] = []
  for (let n = begin; n <= end; n++) list.push(n)
  return list
}

function rangeGet(begin: number, end: number, data: unknown): unknown[] {
  if (!Array.isArray(data)) throw new RuleEvalError('range_get', 'non_list_data')
  if (begin === 0 || end === 0) throw new RuleEvalError('invalid_index', '0')
  const from = begin > 0 ? begin : data.length + begin + 1
  const to = end > 0 ? end : data.length + end + 1
  if (from < 1 || from > data.length + 1 || to - from + 1 < 0) throw new RuleEvalError('function_clause', `lists:sublist with [${begin}..${end}]`)
  return data.slice(from - 1, to)
}

class Compiler {
  private readonly functions: FunctionLookup
  constructor(functions: FunctionLookup) { this.functions = functions }

  /** eval/2: an expression's value. */
  value(e: Expr): Compiled {
    switch (e.type) {
      case 'const': { const v = e.value; return () => v }
      case 'path': return (st) => lookup(e, st)
      case 'range': return () => rangeList(e.begin, e.end)
      case 'get_range': { const of = this.value(e.of); return (st) => rangeGet(e.begin, e.end, of(st)) }
      case 'list': { const items = e.items.map((i) => this.value(i)); return (st) => items.map((i) => i(st)) }
      case 'unary': {
        const arg = this.value(e.arg)
        if (e.op === '+') return arg
        return (st) => {
          const v = arg(st)
          if (typeof v !== 'number') throw new RuleEvalError('badarith', `-${toBinary(v)}`)
          return -v
        }
      }
      case 'arith': { const l = this.value(e.left); const r = this.value(e.right); const op = e.op; return (st) => arith(op, l(st), r(st)) }
      case 'compare': { const l = this.value(e.left); const r = this.value(e.right); const op = e.op; return (st) => compare(op, l(st), r(st)) }
      case 'case': return this.caseExpr(e)
      case 'call': return this.call(e)
      default:
        // eval/2 has no clause for and/or/not/in: EMQX fails such a rule when it runs.
        return () => { throw new RuleEvalError('function_clause', `${e.type.toUpperCase()} cannot be evaluated as a value`) }
    }
  }

  /** match_conditions/2: a condition's truth. */
  condition(e: Expr): (st: RunState) => boolean {
    switch (e.type) {
      case 'and': { const l = this.condition(e.left); const r = this.condition(e.right); return (st) => l(st) && r(st) }
      case 'or': { const l = this.condition(e.left); const r = this.condition(e.right); return (st) => l(st) || r(st) }
      case 'not': { const arg = this.value(e.arg); return (st) => { const v = arg(st); return typeof v === 'boolean' ? !v : false } }
      case 'in': {
        const arg = this.value(e.arg)
        const list = e.list.map((i) => this.value(i))
        return (st) => { const v = arg(st); return list.some((i) => exactEqual(v, i(st))) }
      }
      case 'compare': return this.value(e) as (st: RunState) => boolean
      case 'call': {
        const call = this.call(e)
        return (st) => {
          const v = call(st)
          if (typeof v !== 'boolean') throw new RuleEvalError('case_clause', `${e.name}() returned ${toBinary(v)}, not a boolean`)
          return v
        }
      }
      default: {
        if (e.type === 'const' && typeof e.value === 'boolean') { const v = e.value; return () => v }
        return () => { throw new RuleEvalError('function_clause', `a ${e.type} is not a condition`) }
      }
    }
  }

  private caseExpr(e: Expr & { type: 'case' }): Compiled {
    const on = e.on && this.value(e.on)
    const clauses = e.clauses.map((c) => ({ when: on ? this.value(c.when) : undefined, test: on ? undefined : this.condition(c.when), then: this.value(c.then) }))
    const otherwise = e.else && this.value(e.else)
    return (st) => {
      for (const c of clauses) {
        // CASE x WHEN v re-evaluates x per clause and matches exactly, as eval_switch_clauses does.
        const hit = c.test ? c.test(st) : exactEqual(c.when!(st), on!(st))
        if (hit) return c.then(st)
      }
      return otherwise ? otherwise(st) : undefined
    }
  }

  private call(e: Expr & { type: 'call' }): Compiled {
    const fn = this.functions.get(e.name)
    if (!fn) throw new RuleSqlError('sql_function_not_supported', `sql_function_not_supported: ${e.name}`, e.pos)
    const args = e.args.map((a) => this.value(a))
    const [a0, a1] = args
    // The common arities call without building an argument array per run.
    const apply: Compiled = args.length === 0 ? () => fn()
      : args.length === 1 ? (st) => fn(a0(st))
        : args.length === 2 ? (st) => fn(a0(st), a1(st))
          : (st) => fn(...args.map((a) => a(st)))
    return (st) => {
      const result = apply(st)
      // A function that needs the event (clientid(), payload(), ...) returns a function of the columns.
      return typeof result === 'function' ? (result as (columns: Obj) => unknown)(st.columns) : result
    }
  }

  fields(fields: Field[]): CompiledField[] {
    return fields.map((f) => {
      if (f.type === 'star') return { star: true, value: () => undefined, key: undefined, ephemeral: '' }
      return { star: false, value: this.value(f.expr), key: f.alias?.segments ?? implicitKey(f.expr), ephemeral: ephemeralName(f.expr) }
    })
  }
}

interface CompiledField {
  star: boolean
  value: Compiled
  /** Where the value goes in the output; undefined: an ephemeral `_v_<type>_<name>_<time>` key. */
  key: Segment[] | undefined
  ephemeral: string
}

/** alias/2 for a field without AS. */
function implicitKey(e: Expr): Segment[] | undefined {
  if (e.type === 'path') return e.segments
  if (e.type === 'get_range') return e.of.segments
  if (e.type === 'const' && typeof e.value === 'string') return [{ key: e.value }]
  return undefined
}

/** The `_v_<type>_<name>_` part of ?ephemeral_alias, in Erlang's ~p rendering. */
function ephemeralName(e: Expr): string {
  const atom = (op: string): string => (/^[a-z][a-zA-Z0-9_]*$/.test(op) ? op : `'${op}'`)
  switch (e.type) {
    case 'list': return `_v_list_${e.items.length}_`
    case 'range': return `_v_range_{${e.begin},${e.end}}_`
    case 'const': return `_v_const_${toBinary(e.value)}_`
    case 'arith': case 'compare': return `_v_op_${atom(e.op)}_`
    case 'case': return `_v_case_${e.on ? 'expr' : '<<>>'}_`
    case 'call': return `_v_fun_{var,<<"${e.name}">>}_`
    default: return '_v_unknown_unknown_'
  }
}

function newState(context: Obj): RunState {
  return { columns: context, first: context, second: undefined, merged: false, rawPayload: undefined, decodedPayload: undefined, stamp: 0 }
}

/** select_and_transform/2: the output object of a field list. */
function transform(fields: CompiledField[], columns: Obj, st: RunState): Obj {
  const out: Obj = {}
  scope(st, out, columns, false)
  for (const f of fields) {
    if (f.star) { Object.assign(out, columns); continue }
    const value = f.value(st)
    put(out, f.key ?? [{ key: ephemeralKey(f, st) }], value, st)
  }
  return out
}

function ephemeralKey(f: CompiledField, st: RunState): string {
  // erlang:system_time() in nanoseconds; a counter keeps two keys of one run apart.
  if (st.stamp === 0) st.stamp = Date.now() * 1e6
  return `${f.ephemeral}${st.stamp++}`
}

export interface CompiledRule {
  kind: Statement['kind']
  from: string[]
  fields: Statement['fields']
  where: Statement['where']
  doEach: Statement['doEach']
  incase: Statement['incase']
  statement: Statement
  /** The output: an object for SELECT, an array for FOREACH; 'nomatch' when WHERE is false. Throws RuleEvalError. */
  run(context: RuleContext): Obj | Obj[] | 'nomatch'
}

export function compileStatement(statement: Statement, functions: FunctionLookup): CompiledRule {
  const compiler = new Compiler(functions)
  const fields = compiler.fields(statement.fields)
  const where = statement.where ? compiler.condition(statement.where) : undefined
  const matches = (st: RunState, selected: Obj, columns: Obj): boolean => {
    if (!where) return true
    scope(st, selected, columns, true)
    try {
      return where(st)
    } catch (error) {
      return failIn('match_conditions_error', error)
    }
  }
  if (statement.kind === 'select') {
    return {
      kind: 'select', from: statement.from, fields: statement.fields, where: statement.where, doEach: [], incase: undefined, statement,
      run(context) {
        const st = newState(context)
        let out: Obj
        try {
          out = transform(fields, context, st)
        } catch (error) {
          return failIn('select_and_transform_error', error)
        }
        return matches(st, out, context) ? out : 'nomatch'
      },
    }
  }
  const doEach = compiler.fields(statement.doEach)
  const incase = statement.incase ? compiler.condition(statement.incase) : undefined
  const alias = statement.fields[statement.fields.length - 1]
  const lastAlias = alias.type === 'field' ? alias.alias?.segments : undefined
  const itemKey = lastAlias?.length === 1 ? (lastAlias[0] as { key: string }).key : 'item'
  return {
    kind: 'foreach', from: statement.from, fields: statement.fields, where: statement.where, doEach: statement.doEach, incase: statement.incase, statement,
    run(context) {
      const st = newState(context)
      // select_and_collect: aliases of the fields before the last also become columns.
      let columns = context
      const selected: Obj = {}
      let collection: unknown
      try {
        fields.forEach((f, i) => {
          scope(st, selected, columns, false)
          if (f.star) { Object.assign(selected, columns); return }
          const value = f.value(st)
          const key = f.key ?? [{ key: ephemeralKey(f, st) }]
          put(selected, key, value, st)
          if (i === fields.length - 1) collection = value
          else if (statement.fields[i].type === 'field' && (statement.fields[i] as { alias?: PathExpr }).alias) {
            columns = { ...columns }
            put(columns, key, value, st)
          }
        })
      } catch (error) {
        return failIn('select_and_collect_error', error)
      }
      if (!matches(st, selected, columns)) return 'nomatch'
      const base: Obj = { ...columns, ...selected }
      const results: Obj[] = []
      for (const item of Array.isArray(collection) ? collection : []) {
        const row: Obj = { ...base }
        setOwn(row, itemKey, item)
        if (incase) {
          scope(st, row, undefined, true)
          let keep: boolean
          try {
            keep = incase(st)
          } catch (error) {
            return failIn('match_incase_error', error)
          }
          if (!keep) continue
        }
        if (doEach.length === 0) { results.push(row); continue }
        try {
          results.push(transform(doEach, row, st))
        } catch (error) {
          return failIn('doeach_error', error)
        }
      }
      return results
    },
  }
}
