// A log record as EMQX 5.8 writes it: its text layout (`<time> [<level>] key: value, ...`, the
// client's tag, id and msg first) or one JSON object a line, with the handler's timestamp format,
// time offset, depth, length and payload encoding.
import type { ConsoleHandlerConfig } from '../../contract/log.ts'
import type { RecordLevel } from './levels.ts'

/** One log record: what the server's code logged, and when (microseconds since the epoch). */
export interface LogRecord {
  time: number
  level: RecordLevel
  msg: string
  /** The record's other keys (clientid, reason, ...), in the order they were given. */
  fields: Record<string, unknown>
}

/** How a handler writes a record: the formatter settings shared by the console and every file. */
export type FormatOptions = Pick<ConsoleHandlerConfig, 'formatter' | 'timestamp_format' | 'time_offset' | 'chars_limit' | 'single_line' | 'max_depth' | 'payload_encode'>

const pad = (n: number, width = 2) => String(Math.trunc(Math.abs(n))).padStart(width, '0')

/** Minutes east of UTC for `system` (this machine's zone at that time), `utc` or `+hh:mm`. */
function offsetMinutes(offset: string, ms: number): number {
  if (offset === 'utc') return 0
  if (offset === 'system') return -new Date(ms).getTimezoneOffset()
  const sign = offset.startsWith('-') ? -1 : 1
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)))
}

/** RFC 3339 with microseconds, as Erlang's calendar writes it (`Z` for utc). */
export function rfc3339Micros(micros: number, offset: string): string {
  const ms = Math.floor(micros / 1000)
  const minutes = offsetMinutes(offset, ms)
  const shifted = new Date(ms + minutes * 60_000)
  const date = `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`
  const time = `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}.${pad(micros % 1_000_000, 6)}`
  const zone = offset === 'utc' ? 'Z' : `${minutes < 0 ? '-' : '+'}${pad(minutes / 60)}:${pad(minutes % 60)}`
  return `${date}T${time}${zone}`
}

/** A payload as the handler's `payload_encode` shows it. */
function encodePayload(payload: unknown, encode: FormatOptions['payload_encode']): unknown {
  if (encode === 'hidden') return '******'
  if (encode === 'hex') return Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)).toString('hex').toUpperCase()
  return payload
}

/** A value cut at `depth` levels of nesting (EMQX's `max_depth`): deeper parts become `...`. */
function limitDepth(value: unknown, depth: number | 'unlimited'): unknown {
  if (depth === 'unlimited' || typeof value !== 'object' || value === null) return value
  if (depth <= 0) return '...'
  if (Array.isArray(value)) return value.map((item) => limitDepth(item, depth - 1))
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, limitDepth(item, depth - 1)]))
}

/** The record's fields as the handler shows them: payload encoded, nesting limited. */
function shownFields(record: LogRecord, options: FormatOptions): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record.fields)) {
    if (value === undefined) continue
    fields[key] = limitDepth(key === 'payload' ? encodePayload(value, options.payload_encode) : value, options.max_depth)
  }
  return fields
}

/** The keys EMQX's text layout puts first, in its order; the record's own keys follow. */
const LEADING = ['tag', 'clientid']

function textValue(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'object' && value !== null && 'message' in value && 'type' in value) {
    const error = value as { type: unknown; message: unknown; stack?: unknown }
    return typeof error.stack === 'string' ? error.stack : `${String(error.type)}: ${String(error.message)}`
  }
  return JSON.stringify(value) ?? String(value)
}

function textLine(record: LogRecord, options: FormatOptions): string {
  const fields = shownFields(record, options)
  const pairs: string[] = []
  for (const key of LEADING) if (key in fields) pairs.push(`${key}: ${textValue(fields[key])}`)
  pairs.push(`msg: ${record.msg}`)
  for (const [key, value] of Object.entries(fields)) if (!LEADING.includes(key)) pairs.push(`${key}: ${textValue(value)}`)
  const time = options.timestamp_format === 'epoch' ? String(record.time) : rfc3339Micros(record.time, options.time_offset)
  return `${time} [${record.level}] ${pairs.join(', ')}`
}

function jsonLine(record: LogRecord, options: FormatOptions): string {
  // EMQX's JSON layout: epoch microseconds unless rfc3339 is asked for.
  const time = options.timestamp_format === 'rfc3339' ? rfc3339Micros(record.time, options.time_offset) : record.time
  return JSON.stringify({ time, level: record.level, msg: record.msg, ...shownFields(record, options) })
}

/** One line (with its newline) for a handler. */
export function formatRecord(record: LogRecord, options: FormatOptions): string {
  let line = options.formatter === 'json' ? jsonLine(record, options) : textLine(record, options)
  if (options.single_line) line = line.replace(/\s*\n\s*/g, ' ')
  if (options.chars_limit !== 'unlimited' && line.length > options.chars_limit) line = `${line.slice(0, options.chars_limit)}...`
  return `${line}\n`
}
