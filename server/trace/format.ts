// A traced event as one line of a trace's file, in EMQX 5.8's text formatter (emqx_trace_formatter:
// `<time> [<tag>] <clientid>@<peername> msg: <msg>, <field>: <value>, ...`) or its JSON formatter
// (emqx_trace_json_formatter: one object a line with time, level, msg and meta).
import type { TraceFormatter, TracePayloadEncode } from '../../contract/trace.ts'
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

/** The fields with the topic, the packet and the payload written out for this trace's encoding. */
function prepared(event: TraceEvent, encode: TracePayloadEncode): Array<[string, TraceValue]> {
  const entries: Array<[string, TraceValue]> = []
  if (event.topic !== undefined) entries.push(['topic', event.topic])
  if (event.ruleId !== undefined) entries.push(['rule_id', event.ruleId])
  for (const [key, value] of Object.entries(event.fields)) {
    if (isPacket(value)) entries.push([key, formatPacket(value.packet, encode)])
    else if (Buffer.isBuffer(value)) {
      const payload = formatPayload(value, encode)
      entries.push([key, payload.text], ['payload_encode', payload.encode])
    } else entries.push([key, value])
  }
  // compare_meta_kvs: the packet first, the payload last, the rest by name.
  const weight = (key: string) => (key === 'packet' ? 0 : key === 'payload' ? 2 : 1)
  return entries.sort(([a], [b]) => weight(a) - weight(b) || (a < b ? -1 : a > b ? 1 : 0))
}

function textValue(value: TraceValue): string {
  if (value === undefined || value === null) return 'undefined'
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2)
  if (typeof value !== 'object') return String(value)
  if (Buffer.isBuffer(value)) return value.toString('utf8')
  if (Array.isArray(value)) return `[${value.map(textValue).join(',')}]`
  if (isPacket(value)) return formatPacket(value.packet, 'text')
  return `[${Object.entries(value).map(([k, v]) => `${k}: ${textValue(v)}`).join(', ')}]`
}

function jsonValue(value: TraceValue): unknown {
  if (value === undefined) return 'undefined'
  if (value === null || typeof value !== 'object') return value
  if (Buffer.isBuffer(value)) return value.toString('utf8')
  if (Array.isArray(value)) return value.map(jsonValue)
  if (isPacket(value)) return formatPacket(value.packet, 'text')
  return Object.fromEntries(Object.entries(value as TraceFields).map(([k, v]) => [k, jsonValue(v)]))
}

export function formatTraceLine(event: TraceEvent, at: number, formatter: TraceFormatter, encode: TracePayloadEncode): string {
  const fields = prepared(event, encode)
  if (formatter === 'json') {
    const meta: Record<string, unknown> = { clientid: event.clientid ?? '', peername: event.peername ?? '', trace_tag: event.tag }
    for (const [key, value] of fields) meta[key] = jsonValue(value)
    return `${JSON.stringify({ time: traceTime(at), level: 'debug', msg: event.msg, meta })}\n`
  }
  const kvs = fields.map(([key, value]) => `${key}: ${textValue(value)}`).join(', ')
  return `${traceTime(at)} [${event.tag}] ${event.clientid ?? ''}@${event.peername ?? ''} msg: ${event.msg}, ${kvs}\n`
}
