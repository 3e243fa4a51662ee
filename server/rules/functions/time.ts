// Time functions (emqx_rule_funcs → emqx_utils_calendar). Epochs are integers in a time unit; they
// are computed with BigInt and come back as numbers (bigint past 2^53, e.g. nanoseconds now).
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { RuleFunctionError, bigInt, fromBig, isInt, text } from './values.ts'

type Unit = 'second' | 'millisecond' | 'microsecond' | 'nanosecond'
const FACTOR: Record<Unit, bigint> = { second: 1n, millisecond: 1000n, microsecond: 1_000_000n, nanosecond: 1_000_000_000n }
const FRACTION_DIGITS: Record<Unit, number> = { second: 0, millisecond: 3, microsecond: 6, nanosecond: 9 }

export function timeUnit(v: unknown): Unit {
  const s = typeof v === 'string' || v instanceof Uint8Array ? text('time_unit', v) : ''
  if (s in FACTOR) return s as Unit
  throw new RuleFunctionError('invalid_time_unit', `invalid_time_unit: ${String(v)}`)
}

// Floor division, as Erlang's div for the non-negative epochs these see (and sane for negative ones).
const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b))
const floorMod = (a: bigint, b: bigint): bigint => a - floorDiv(a, b) * b

/** erlang:convert_time_unit: towards a coarser unit rounds down. */
const convert = (t: bigint, from: Unit, to: Unit): bigint => floorDiv(t * FACTOR[to], FACTOR[from])

export function nowIn(unit: Unit): bigint {
  const ns = BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n)
  return convert(ns, 'nanosecond', unit)
}

const pad = (n: number | bigint, width: number): string => String(n).padStart(width, '0')

function offsetText(offset: number, withColon: boolean, withSeconds = false): string {
  const abs = Math.abs(offset)
  const hh = pad(Math.floor(abs / 3600), 2)
  const mm = pad(Math.floor((abs % 3600) / 60), 2)
  const ss = pad(abs % 60, 2)
  const sign = offset >= 0 ? '+' : '-'
  if (withSeconds) return `${sign}${hh}:${mm}:${ss}`
  return withColon ? `${sign}${hh}:${mm}` : `${sign}${hh}${mm}`
}

/** The machine's local offset in seconds now (calendar's default when no offset is given). */
const localOffset = (): number => -new Date().getTimezoneOffset() * 60

/** emqx_utils_calendar:offset_second: "+HH:MM", "+HH:MM:SS", "+HHMM", "Z", "local", undefined or seconds. */
export function offsetSecond(v: unknown): number {
  if (isInt(v)) return Number(v)
  if (v === undefined) return 0
  const s = text('offset_second', v)
  if (s === 'local') return localOffset()
  if (s === 'Z' || s === 'z') return 0
  const bad = (): never => {
    throw new RuleFunctionError('bad_time_offset', `bad_time_offset: ${s}`)
  }
  const sign = s[0] === '+' ? 1 : s[0] === '-' ? -1 : bad()
  const parts = s.slice(1).split(':').filter((p) => p !== '')
  const [h, m, sec] =
    parts.length === 2 ? [parts[0]!, parts[1]!, '0'] : parts.length === 3 ? parts : parts.length === 1 && parts[0]!.length === 4 ? [parts[0]!.slice(0, 2), parts[0]!.slice(2), '0'] : bad()
  const nums = [h, m, sec].map((p) => (/^[+-]?\d+$/.test(p!) ? Number(p) : bad()))
  if (nums[0]! > 23 || nums[1]! > 59 || nums[2]! > 59) bad()
  return sign * (nums[0]! * 3600 + nums[1]! * 60 + nums[2]!)
}

function utcParts(secs: bigint) {
  const d = new Date(Number(secs) * 1000)
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() }
}

/** calendar:system_time_to_rfc3339 with the local offset, fraction digits by unit. */
export function epochToRfc3339(epoch: bigint, unit: Unit, offset = localOffset()): string {
  const f = FACTOR[unit]
  const secs = floorDiv(epoch, f) + BigInt(offset)
  const p = utcParts(secs)
  const frac = unit === 'second' ? '' : `.${pad(floorMod(epoch, f), FRACTION_DIGITS[unit])}`
  return `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)}T${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}${frac}${offsetText(offset, true)}`
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|z|[+-]\d{2}:\d{2})$/

export function rfc3339ToEpoch(v: unknown, unit: Unit): bigint {
  const s = text('rfc3339_to_unix_ts', v)
  const m = RFC3339.exec(s)
  if (!m) throw new RuleFunctionError('badarg', `badarg: rfc3339_to_unix_ts(${s})`)
  const [, y, mo, d, h, mi, se, frac, zone] = m
  const secs = BigInt(daysFromCivil(+y!, +mo!, +d!)) * 86400n + BigInt(+h! * 3600 + +mi! * 60 + +se!) - BigInt(offsetSecond(zone))
  const fracNs = frac ? BigInt((frac + '000000000').slice(0, 9)) : 0n
  return convert(secs * 1_000_000_000n + fracNs, 'nanosecond', unit)
}

/** Days since 1970-01-01 of a proleptic Gregorian date; invalid dates (Feb 30) are badarg. */
function daysFromCivil(y: number, m: number, d: number): number {
  // setUTCFullYear, unlike Date.UTC, keeps years 0..99 as they are.
  const check = new Date(0)
  check.setUTCFullYear(y, m - 1, d)
  const ms = check.getTime()
  if (m < 1 || m > 12 || check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) {
    throw new RuleFunctionError('badarg', `badarg: date ${y}-${m}-${d}`)
  }
  return Math.floor(ms / 86_400_000)
}

type FormatToken = { key: string } | { literal: string }
const DIRECTIVES: ReadonlyArray<[string, string]> = [
  ['%::z', 'timezone2'],
  ['%:z', 'timezone1'],
  ['%3N', 'millisecond'],
  ['%6N', 'microsecond'],
  ['%Y', 'year'],
  ['%m', 'month'],
  ['%d', 'day'],
  ['%H', 'hour'],
  ['%M', 'minute'],
  ['%S', 'second'],
  ['%N', 'nanosecond'],
  ['%z', 'timezone'],
]

function formatter(fmt: string): FormatToken[] {
  const out: FormatToken[] = []
  let rest = fmt
  while (rest.length > 0) {
    const hit = DIRECTIVES.find(([d]) => rest.startsWith(d))
    if (hit) {
      out.push({ key: hit[1] })
      rest = rest.slice(hit[0].length)
    } else {
      const last = out[out.length - 1]
      if (last && 'literal' in last) last.literal += rest[0]
      else out.push({ literal: rest[0]! })
      rest = rest.slice(1)
    }
  }
  return out
}

function subSecond(from: Unit, to: 'millisecond' | 'microsecond' | 'nanosecond', time: bigint): string {
  if (from === 'second') return pad(0, FRACTION_DIGITS[to])
  const part = floorMod(time, FACTOR[from])
  return pad(convert(part, from, to), FRACTION_DIGITS[to])
}

export function formatDate(unitArg: unknown, offsetArg: unknown, fmtArg: unknown, epochArg: unknown): string {
  const unit = timeUnit(unitArg)
  const offset = offsetSecond(offsetArg)
  const time = bigInt('format_date', epochArg)
  const secs = floorDiv(time + BigInt(offset) * FACTOR[unit], FACTOR[unit])
  const p = utcParts(secs)
  const values: Record<string, string> = {
    year: pad(p.year, 4),
    month: pad(p.month, 2),
    day: pad(p.day, 2),
    hour: pad(p.hour, 2),
    minute: pad(p.minute, 2),
    second: pad(p.second, 2),
    millisecond: subSecond(unit, 'millisecond', time),
    microsecond: subSecond(unit, 'microsecond', time),
    nanosecond: subSecond(unit, 'nanosecond', time),
    timezone: offsetText(offset, false),
    timezone1: offsetText(offset, true),
    timezone2: offsetText(offset, true, true),
  }
  return formatter(text('format_date', fmtArg))
    .map((t) => ('key' in t ? values[t.key]! : t.literal))
    .join('')
}

const DATE_SIZE: Record<string, number> = { year: 4, month: 2, day: 2, hour: 2, minute: 2, second: 2, millisecond: 3, microsecond: 6, nanosecond: 9, timezone: 5, timezone1: 6, timezone2: 9 }

/** emqx_utils_calendar:formatted_datetime_to_system_time: fields by width; literals are skipped by length. */
export function dateToEpoch(input: string, unit: Unit, fmt: string): bigint {
  const info: Record<string, number> = {}
  let rest = input
  for (const token of formatter(fmt)) {
    if (rest === '') break
    const size = 'key' in token ? DATE_SIZE[token.key]! : token.literal.length
    if (rest.length < size) throw new RuleFunctionError('bad_formatter_or_date', 'bad_formatter_or_date')
    const part = rest.slice(0, size)
    rest = rest.slice(size)
    if (!('key' in token)) continue
    if (token.key.startsWith('timezone')) info.parsed_offset = offsetSecond(part)
    else if (/^[+-]?\d+$/.test(part)) info[token.key] = Number(part)
    else throw new RuleFunctionError('bad_formatter_or_date', 'bad_formatter_or_date')
  }
  const required = (key: string): number => {
    if (info[key] === undefined) throw new RuleFunctionError('missing_date_part', `missing_date_part: ${key}`)
    return info[key]
  }
  const y = required('year')
  const mo = required('month')
  const d = required('day')
  const secs =
    BigInt(daysFromCivil(y, mo, d)) * 86400n + BigInt(required('hour') * 3600 + required('minute') * 60 + required('second')) - BigInt(info.parsed_offset ?? 0)
  const ns = secs * 1_000_000_000n + BigInt(info.millisecond ?? 0) * 1_000_000n + BigInt(info.microsecond ?? 0) * 1000n + BigInt(info.nanosecond ?? 0)
  // EMQX sums in the finest unit the string has, then converts (rounding down) to the asked unit.
  const precision: Unit = info.nanosecond !== undefined ? 'nanosecond' : info.microsecond !== undefined ? 'microsecond' : info.millisecond !== undefined ? 'millisecond' : 'second'
  return convert(convert(ns, 'nanosecond', precision), precision, unit)
}

function mongoDate(ms: bigint): string {
  return `ISODate(${epochToRfc3339(ms, 'millisecond', 0).replace(/\+00:00$/, 'Z')})`
}

export const timeFunctions: RuleFunctionGroup = {
  now_rfc3339: ruleFn([0, 1], (u) => {
    const unit = u === undefined ? 'second' : timeUnit(u)
    return epochToRfc3339(nowIn(unit), unit)
  }),
  unix_ts_to_rfc3339: ruleFn([1, 2], (epoch, u) => {
    const unit = u === undefined ? 'second' : timeUnit(u)
    return epochToRfc3339(bigInt('unix_ts_to_rfc3339', epoch), unit)
  }),
  rfc3339_to_unix_ts: ruleFn([1, 2], (s, u) => fromBig(rfc3339ToEpoch(s, u === undefined ? 'second' : timeUnit(u)))),
  now_timestamp: ruleFn([0, 1], (u) => fromBig(nowIn(u === undefined ? 'second' : timeUnit(u)))),
  format_date: ruleFn([3, 4], (u, offset, fmt, epoch) => formatDate(u, offset, fmt, epoch === undefined ? nowIn(timeUnit(u)) : epoch)),
  date_to_unix_ts: ruleFn([3, 4], (u, a, b, c) => {
    const unit = timeUnit(u)
    // date_to_unix_ts(Unit, Format, Input) or date_to_unix_ts(Unit, Offset, Format, Input).
    if (c === undefined) return fromBig(dateToEpoch(text('date_to_unix_ts', b), unit, text('date_to_unix_ts', a)))
    const local = dateToEpoch(text('date_to_unix_ts', c), unit, text('date_to_unix_ts', b))
    return fromBig(local - convert(BigInt(offsetSecond(a)), 'second', unit))
  }),
  timezone_to_second: ruleFn([1], offsetSecond),
  timezone_to_offset_seconds: ruleFn([1], offsetSecond),
  // EMQX gives the Mongo driver an Erlang timestamp; its SQL tester shows ISODate(...), as this does.
  mongo_date: ruleFn([0, 1, 2], (ts, u) => {
    if (ts === undefined) return mongoDate(nowIn('millisecond'))
    const unit = u === undefined ? 'millisecond' : timeUnit(u)
    return mongoDate(convert(bigInt('mongo_date', ts), unit, 'millisecond'))
  }),
}
