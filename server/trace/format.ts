// A traced event as one line of a trace's file, in EMQX 5.8's text formatter (emqx_trace_formatter:
// `<time> [<tag>] <clientid>@<peername> msg: <msg>, <field>: <value>, ...`) or its JSON formatter
// (emqx_trace_json_formatter: one object a line with time, level, msg and meta). A ?SLOG line (an
// event with a level) is written as emqx_logger_textfmt writes a report:
// `<time> [<level>] tag: <tag>, clientid: <id>, msg: <msg>, peername: <peer>, username: <user>, topic: <topic>, <rest sorted>`.
import type { TraceFormatter, TracePayloadEncode } from '../../contract/trace.ts'
import { formatTerm, Tuple } from '../rules/events/erlang-term.ts'
import type { TraceEvent, TraceFields, TraceValue } from './event.ts'
import { formatPacket } from './packet.ts'
import { formatPayload } from './payload.ts'

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** RFC 3339 with microseconds and the local offset, as emqx_utils_calendar:now_to_rfc3339(microsecond). */
export function traceTime(ms: number): string {
  const date = new Date(ms)
  const offset = -date.getTimezoneOffset()
  const abs = Math.abs(offset)
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `.${pad(date.getMilliseconds(), 3)}000${offset >= 0 ? '+' : '-'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  )
}

function isPacket(value: TraceValue): value is { packet: import('mqtt-packet').Packet } {
  return typeof value === 'object' && value !== null && !Buffer.isBuffer(value) && !Array.isArray(value) && 'packet' in value && typeof value.packet === 'object'
}

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The fields with the packet and the payload written out for this trace's encoding (a payload adds
 * `payload_encode`), as format_meta_map and the log formatter's try_encode_meta do.
 */
function encoded(fields: TraceFields, encode: TracePayloadEncode): Array<[string, TraceValue]> {
  const entries: Array<[string, TraceValue]> = []
  for (const [key, value] of Object.entries(fields)) {
    if (isPacket(value)) entries.push([key, formatPacket(value.packet, encode)])
    else if (Buffer.isBuffer(value)) {
      const payload = formatPayload(value, encode)
      entries.push([key, payload.text], ['payload_encode', payload.encode])
    } else entries.push([key, value])
  }
  return entries
}

/** A ?TRACE's fields with the topic and rule, sorted as compare_meta_kvs: the packet first, the payload last, the rest by name. */
function traceFields(event: TraceEvent, encode: TracePayloadEncode): Array<[string, TraceValue]> {
  const entries = encoded(event.fields, encode)
  if (event.topic !== undefined) entries.push(['topic', event.topic])
  if (event.ruleId !== undefined) entries.push(['rule_id', event.ruleId])
  if (event.ruleIds !== undefined) entries.push(['rule_ids', mapSet(event.ruleIds)])
  if (event.clientIds !== undefined) entries.push(['client_ids', mapSet(event.clientIds)])
  // The process metadata goes under the event's own fields (maps:merge(ProcMeta, Meta)); none when empty.
  if (event.username && !('username' in event.fields)) entries.push(['username', event.username])
  const weight = (key: string) => (key === 'packet' ? 0 : key === 'payload' ? 2 : 1)
  return entries.sort((a, b) => weight(a[0]) - weight(b[0]) || byKey(a, b))
}

/** A map set (`#{Id => true}`), as 5.8's buffer worker keeps the rule and client ids of a batch. */
const mapSet = (ids: readonly string[]): TraceFields => Object.fromEntries(ids.map((id) => [id, true]))

/** A code point unicode:characters_to_list takes. */
const isChar = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0x10ffff && (value < 0xd800 || value > 0xdfff)

/**
 * unicode:characters_to_list of a list: text when every item is text, a code point or such a list
 * (a Redis command's arguments run together, as 5.8 writes them); undefined when it is not chardata.
 */
function chardata(list: readonly TraceValue[]): string | undefined {
  let text = ''
  for (const item of list) {
    if (typeof item === 'string') text += item
    else if (isChar(item)) text += String.fromCodePoint(item)
    else if (Array.isArray(item)) {
      const inner = chardata(item)
      if (inner === undefined) return undefined
      text += inner
    } else return undefined
  }
  return text
}

/**
 * to_iolist/1: a map as `[k: v, ...]` (keys in map order, its payload written for the trace's
 * encoding as format_meta_data does at any depth), a list as text when it is chardata, else as
 * Erlang prints it (try_format_unicode).
 */
function textValue(value: TraceValue, encode: TracePayloadEncode): string {
  if (value === undefined || value === null) return 'undefined'
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2)
  if (typeof value !== 'object') return String(value)
  if (Buffer.isBuffer(value)) return value.toString('utf8')
  if (Array.isArray(value)) return chardata(value) ?? formatTerm(value)
  if (value instanceof Tuple) return formatTerm(value)
  if (isPacket(value)) return formatPacket(value.packet, 'text')
  return `[${encoded(value, encode).sort(byKey).map(([k, v]) => `${k}: ${textValue(v, encode)}`).join(', ')}]`
}

/** A ?SLOG report's value as logger_formatter prints it: text as it is, other terms as `~0p`. */
function reportValue(value: TraceValue): string {
  if (value === undefined || value === null) return 'undefined'
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Buffer.isBuffer(value)) return value.toString('utf8')
  if (isPacket(value)) return formatPacket(value.packet, 'text')
  if (value instanceof Tuple) return formatTerm(value)
  if (Array.isArray(value)) return `[${value.map(reportValue).join(',')}]`
  return `#{${Object.entries(value).sort(byKey).map(([k, v]) => `${k} => ${reportValue(v)}`).join(',')}}`
}

/**
 * format_action_info: `action:<type>:<name>:connector:...` as `{type, name}`; a function's
 * `{mod, func}` as it is; anything else stays `action_id`.
 */
function actionInfo(value: TraceValue): TraceFields | undefined {
  if (typeof value === 'string') {
    const [kind, type, name] = value.split(':')
    return kind === 'action' && type !== undefined && name !== undefined ? { type, name } : undefined
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value) && !(value instanceof Tuple) && 'mod' in value && 'func' in value ? (value as TraceFields) : undefined
}

/** prepare_log_data/prepare_key_value: payloads and packets written out at any depth, the keys 5.8 converts by name converted. */
function jsonFields(entries: Array<[string, TraceValue]>, encode: TracePayloadEncode, into: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of entries) {
    const info = key === 'action_id' ? actionInfo(value) : undefined
    if (info !== undefined) into.action_info = jsonValue(info, encode)
    else if ((key === 'rule_ids' || key === 'client_ids') && typeof value === 'object' && value !== null && !Array.isArray(value)) into[key] = Object.keys(value).sort()
    else into[key] = jsonValue(value, encode)
  }
  return into
}

/** emqx_logger_jsonfmt:json/2: a list of pairs as an object, of text as a text array, chardata as text. */
function jsonValue(value: TraceValue, encode: TracePayloadEncode): unknown {
  if (value === undefined) return 'undefined'
  if (value === null || typeof value !== 'object') return value
  if (Buffer.isBuffer(value)) return value.toString('utf8')
  if (value instanceof Tuple) return formatTerm(value)
  if (Array.isArray(value)) {
    if (value[0] instanceof Tuple && value.every((item) => item instanceof Tuple && item.items.length === 2)) {
      const pairs = value as Tuple[]
      const keys = new Set(pairs.map((pair) => String(pair.items[0])))
      if (keys.size === pairs.length) return Object.fromEntries(pairs.map((pair) => [String(pair.items[0]), jsonValue(pair.items[1] as TraceValue, encode)]))
    }
    if (value.every((item) => typeof item === 'string')) return value
    return chardata(value) ?? value.map((item) => jsonValue(item, encode))
  }
  if (isPacket(value)) return formatPacket(value.packet, encode)
  return jsonFields(encoded(value, encode), encode, {})
}

/** enrich_report: the report's fixed keys first (those with a value), then the rest in map order. */
function reportEntries(event: TraceEvent, encode: TracePayloadEncode): Array<[string, TraceValue]> {
  const rest = encoded(event.fields, encode)
  const topic = event.topic ?? (event.fields.topic as string | undefined)
  const username = event.username ?? (event.fields.username as string | undefined)
  const head: Array<[string, TraceValue]> = [['tag', event.tag], ['clientid', event.clientid], ['msg', event.msg], ['peername', event.peername], ['username', username], ['topic', topic]]
  return [...head.filter(([, value]) => value !== undefined && value !== ''), ...rest.filter(([key]) => key !== 'topic' && key !== 'username').sort(byKey)]
}

export function formatTraceLine(event: TraceEvent, at: number, formatter: TraceFormatter, encode: TracePayloadEncode): string {
  if (formatter === 'json') {
    if (event.level !== undefined) {
      const { msg, ...meta } = Object.fromEntries(reportEntries(event, encode).map(([key, value]) => [key, jsonValue(value, encode)]))
      return `${JSON.stringify({ time: traceTime(at), level: event.level, msg, meta })}\n`
    }
    // A buffer worker's line (one with the batch's client ids) has no client or peer of its own in its metadata.
    const meta: Record<string, unknown> = event.clientIds === undefined || event.clientid !== undefined ? { clientid: event.clientid ?? '', peername: event.peername ?? '' } : {}
    meta.trace_tag = event.tag
    return `${JSON.stringify({ time: traceTime(at), level: 'debug', msg: event.msg, meta: jsonFields(traceFields(event, encode), encode, meta) })}\n`
  }
  if (event.level !== undefined) {
    return `${traceTime(at)} [${event.level}] ${reportEntries(event, encode).map(([key, value]) => `${key}: ${reportValue(value)}`).join(', ')}\n`
  }
  const kvs = traceFields(event, encode).map(([key, value]) => `${key}: ${textValue(value, encode)}`).join(', ')
  return `${traceTime(at)} [${event.tag}] ${event.clientid ?? ''}@${event.peername ?? ''} msg: ${event.msg}, ${kvs}\n`
}
