// String functions (emqx_rule_funcs → emqx_variform_bif). Lengths and positions count Unicode code
// points (Erlang counts grapheme clusters; they differ only for combining sequences).
import { jqFunctions } from './jq.ts'
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { RuleFunctionError, badarg, floatToDecimals, int, isMap, jsonEncode, literal, text, toText } from './values.ts'

const chars = (s: string): string[] => Array.from(s)

// string:trim's default whitespace (Unicode pattern white space, \r\n as one).
const LEADING_SPACE = /^[\s\u0085\u200e\u200f\u2028\u2029]+/u
const TRAILING_SPACE = /[\s\u0085\u200e\u200f\u2028\u2029]+$/u

export function trimChars(s: string, set: string, leading: boolean, trailing: boolean): string {
  const cs = chars(s)
  const drop = new Set(chars(set))
  let start = 0
  let end = cs.length
  if (leading) while (start < end && drop.has(cs[start]!)) start++
  if (trailing) while (end > start && drop.has(cs[end - 1]!)) end--
  return cs.slice(start, end).join('')
}

function splitString(s: string, p: string, where: 'all' | 'leading' | 'trailing'): string[] {
  if (p === '') return [s]
  if (where === 'all') return s.split(p)
  const at = where === 'leading' ? s.indexOf(p) : s.lastIndexOf(p)
  if (at < 0) return [s]
  return [s.slice(0, at), s.slice(at + p.length)]
}

const SPLIT_MODES: Record<string, { where: 'all' | 'leading' | 'trailing'; trim: boolean }> = {
  notrim: { where: 'all', trim: false },
  leading: { where: 'leading', trim: true },
  leading_notrim: { where: 'leading', trim: false },
  trailing: { where: 'trailing', trim: true },
  trailing_notrim: { where: 'trailing', trim: false },
}

function split(s: unknown, p: unknown, mode: unknown = undefined): string[] {
  const src = text('split', s)
  const sep = text('split', p)
  const m = mode === undefined ? { where: 'all' as const, trim: true } : SPLIT_MODES[text('split', mode)]
  if (!m) return badarg('split', s, p, mode)
  if (src === '') return m.trim ? [] : ['']
  const parts = splitString(src, sep, m.where)
  return m.trim ? parts.filter((part) => part !== '') : parts
}

// string:lexemes: runs of separator characters (\r\n counts as one) split, empty tokens are dropped.
function tokens(s: unknown, separators: unknown, noCrLf: unknown = undefined): string[] {
  const set = new Set(chars(text('tokens', separators)))
  if (noCrLf !== undefined) {
    if (text('tokens', noCrLf) !== 'nocrlf') return badarg('tokens', s, separators, noCrLf)
    set.add('\r')
    set.add('\n')
  }
  const out: string[] = []
  let current = ''
  const cs = chars(text('tokens', s))
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i]!
    // "\r\n" is one grapheme: a separator only as a whole (or when \r\n itself is a separator).
    if (c === '\r' && cs[i + 1] === '\n') {
      if (set.has('\r') && set.has('\n')) {
        if (current) out.push(current)
        current = ''
      } else current += '\r\n'
      i++
      continue
    }
    if (set.has(c)) {
      if (current) out.push(current)
      current = ''
    } else current += c
  }
  if (current) out.push(current)
  return out
}

function pad(s: unknown, len: unknown, position: unknown = 'trailing', char: unknown = ' '): string {
  const src = text('pad', s)
  const width = int('pad', len)
  const unit = text('pad', char)
  const n = Math.max(0, width - chars(src).length)
  const fill = (count: number) => unit.repeat(count)
  switch (position) {
    case 'trailing':
      return src + fill(n)
    case 'leading':
      return fill(n) + src
    case 'both':
      return fill(Math.floor(n / 2)) + src + fill(n - Math.floor(n / 2))
    default:
      return badarg('pad', s, len, position, char)
  }
}

function replace(s: unknown, p: unknown, r: unknown, position: unknown = 'all'): string {
  const src = text('replace', s)
  const pattern = text('replace', p)
  const rep = text('replace', r)
  if (pattern === '') return src
  if (position === 'all') return src.split(pattern).join(rep)
  const at = position === 'leading' ? src.indexOf(pattern) : position === 'trailing' ? src.lastIndexOf(pattern) : -2
  if (at === -2) return badarg('replace', s, p, r, position)
  return at < 0 ? src : src.slice(0, at) + rep + src.slice(at + pattern.length)
}

// Without the u flag JS accepts what PCRE accepts without its unicode option (\-, a lone {).
function regex(fn: string, re: unknown, flags = ''): RegExp {
  try {
    return new RegExp(text(fn, re), flags)
  } catch {
    return badarg(fn, re)
  }
}

// re:replace's replacement: & is the whole match, \N (or \gN) a group, \& a literal &.
function erlangReplacement(rep: string) {
  return (match: string, ...rest: unknown[]): string => {
    const groups = rest.slice(0, rest.findIndex((v) => typeof v === 'number'))
    return rep.replace(/\\\\|\\&|&|\\g?\{?(\d+)\}?/g, (token, n: string | undefined) => {
      if (token === '\\\\') return '\\'
      if (token === '\\&') return '&'
      if (token === '&') return match
      const i = Number(n)
      return i === 0 ? match : String(groups[i - 1] ?? '')
    })
  }
}

const find = (s: unknown, p: unknown, position: unknown = 'leading'): string => {
  const src = text('find', s)
  const pattern = text('find', p)
  if (position !== 'leading' && position !== 'trailing') return badarg('find', s, p, position)
  if (src === '') return ''
  const at = position === 'leading' ? src.indexOf(pattern) : src.lastIndexOf(pattern)
  return at < 0 ? '' : src.slice(at)
}

function unescape(s: unknown): string {
  const cs = chars(text('unescape', s))
  const simple: Record<string, string> = { '\\': '\\', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', "'": "'", '"': '"', '?': '?', a: '\x07' }
  let out = ''
  for (let i = 0; i < cs.length; i++) {
    if (cs[i] !== '\\' || i + 1 >= cs.length) {
      out += cs[i]
      continue
    }
    const next = cs[i + 1]!
    if (next in simple) {
      out += simple[next]
      i++
      continue
    }
    if (next === 'x' && /^[0-9a-fA-F]$/.test(cs[i + 2] ?? '')) {
      let hex = ''
      let j = i + 2
      while (j < cs.length && /^[0-9a-fA-F]$/.test(cs[j]!)) hex += cs[j++]
      const code = parseInt(hex, 16)
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        throw new RuleFunctionError('invalid_unicode_character', `invalid_unicode_character: \\x${hex}`)
      }
      out += String.fromCodePoint(code)
      i = j - 1
      continue
    }
    throw new RuleFunctionError('unrecognized_escape_sequence', `unrecognized_escape_sequence: \\${next}`)
  }
  return out
}

/** emqx_utils_sql:to_sql_string with SQL escaping: text quoted with \ and ' escaped; numbers bare. */
function sqlValue(v: unknown): string {
  if (v === undefined) return 'NULL'
  if (typeof v === 'number' || typeof v === 'bigint') return toText(v)
  const s = Array.isArray(v) ? jsonEncode(v) : toText(v)
  return `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`
}

function redisHsetArgs(payload: unknown): unknown[] {
  let map: unknown = payload
  if (typeof payload === 'string' || payload instanceof Uint8Array) {
    try {
      map = JSON.parse(text('map_to_redis_hset_args', payload))
    } catch {
      return ['map_to_redis_hset_args']
    }
  }
  if (!isMap(map)) return ['map_to_redis_hset_args']
  const fields: string[] = []
  for (const [k, v] of Object.entries(map)) {
    const value =
      typeof v === 'string'
        ? v
        : typeof v === 'number'
          ? Number.isInteger(v)
            ? String(v)
            : floatToDecimals(v, 6)
          : typeof v === 'boolean'
            ? String(v)
            : undefined
    // Fields whose value is not a string, number or boolean are left out, as EMQX does.
    if (value !== undefined) fields.push(k, value)
  }
  return ['map_to_redis_hset_args', ...fields]
}

// io_lib:format for the directives rules use: ~s ~ts ~p ~tp ~w ~0p ~d ~f ~n ~c ~~.
function sprintf(format: unknown, args: unknown): string {
  const fmt = text('sprintf_s', format)
  if (!Array.isArray(args)) return badarg('sprintf_s', format, args)
  let i = 0
  const take = (): unknown => {
    if (i >= args.length) return badarg('sprintf_s', format, args)
    return args[i++]
  }
  const out = fmt.replace(/~(-?\d*)(?:\.(\d+))?t?([spwdfnc~e])/g, (_all, _width: string, precision: string | undefined, directive: string) => {
    switch (directive) {
      case '~':
        return '~'
      case 'n':
        return '\n'
      case 's':
        return toText(take())
      case 'p':
      case 'w':
        return literal(take())
      case 'd': {
        const v = take()
        return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v)) ? String(v) : badarg('sprintf_s', format, args)
      }
      case 'f':
      case 'e': {
        const v = take()
        if (typeof v !== 'number') return badarg('sprintf_s', format, args)
        const digits = precision === undefined ? 6 : Number(precision)
        return directive === 'f' ? v.toFixed(digits) : v.toExponential(digits)
      }
      case 'c': {
        const v = take()
        return typeof v === 'number' ? String.fromCodePoint(v) : badarg('sprintf_s', format, args)
      }
      default:
        return _all
    }
  })
  if (i !== args.length) return badarg('sprintf_s', format, args)
  return out
}

export const stringFunctions: RuleFunctionGroup = {
  lower: ruleFn([1], (s) => text('lower', s).toLowerCase()),
  upper: ruleFn([1], (s) => text('upper', s).toUpperCase()),
  trim: ruleFn([1], (s) => text('trim', s).replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '')),
  ltrim: ruleFn([1], (s) => text('ltrim', s).replace(LEADING_SPACE, '')),
  rtrim: ruleFn([1, 2], (s, set) =>
    set === undefined ? text('rtrim', s).replace(TRAILING_SPACE, '') : trimChars(text('rtrim', s), text('rtrim', set), false, true),
  ),
  rm_prefix: ruleFn([2], (s, prefix) => {
    const src = text('rm_prefix', s)
    const p = text('rm_prefix', prefix)
    return src.startsWith(p) ? src.slice(p.length) : src
  }),
  reverse: ruleFn([1], (s) => chars(text('reverse', s)).reverse().join('')),
  strlen: ruleFn([1], (s) => chars(text('strlen', s)).length),
  // string:slice: 0-based start.
  substr: ruleFn([2, 3], (s, start, length) => {
    const cs = chars(text('substr', s))
    const from = int('substr', start)
    if (from < 0) return badarg('substr', s, start)
    if (length === undefined) return cs.slice(from).join('')
    const n = int('substr', length)
    if (n < 0) return badarg('substr', s, start, length)
    return cs.slice(from, from + n).join('')
  }),
  split: ruleFn([2, 3], split),
  tokens: ruleFn([2, 3], tokens),
  concat: ruleFn([1, 2], (a, b) => {
    const list = b === undefined ? a : [a, b]
    if (!Array.isArray(list)) return badarg('concat', a)
    return list.map(toText).join('')
  }),
  sprintf_s: ruleFn([2], sprintf),
  sprintf: { arities: [], variadicFrom: 1, impl: (format, ...args) => sprintf(format, args) },
  pad: ruleFn([2, 3, 4], pad),
  replace: ruleFn([3, 4], replace),
  regex_match: ruleFn([2], (s, re) => regex('regex_match', re).test(text('regex_match', s))),
  regex_replace: ruleFn([3], (s, re, rep) => text('regex_replace', s).replace(regex('regex_replace', re, 'g'), erlangReplacement(text('regex_replace', rep)))),
  regex_extract: ruleFn([2], (s, re) => {
    const m = regex('regex_extract', re).exec(text('regex_extract', s))
    return m ? m.slice(1).map((g) => g ?? '') : []
  }),
  // The first byte of the binary (the character code for ASCII text).
  ascii: ruleFn([1], (c) => {
    const b = Buffer.from(text('ascii', c), 'utf8')
    return b.length > 0 ? b[0] : badarg('ascii', c)
  }),
  find: ruleFn([2, 3], find),
  join_to_string: ruleFn([1, 2], (a, b) => {
    const [sep, list] = b === undefined ? [', ', a] : [text('join_to_string', a), b]
    if (!Array.isArray(list)) return badarg('join_to_string', a, b)
    return list.map(toText).join(sep)
  }),
  join_to_sql_values_string: ruleFn([1], (list) => {
    if (!Array.isArray(list)) return badarg('join_to_sql_values_string', list)
    return list.map(sqlValue).join(', ')
  }),
  map_to_redis_hset_args: ruleFn([1], redisHsetArgs),
  unescape: ruleFn([1], unescape),
  ...jqFunctions,
}
