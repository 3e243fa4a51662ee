// Terminal lines from log entries: ANSI colours for status, and every control character in
// user-provided text (ids, payloads, messages) made visible so it can never move the cursor,
// change colours or clear the screen. Pure; tested without a DOM.
import type { TerminalEntry } from '../../state/terminalLog.ts'
import { escapeControl } from '../../ui/escapeControl.ts'

export function formatTime(time: number): string {
  const d = new Date(time)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

const SGR = {
  reset: '\x1b[0m',
  dim: '\x1b[90m',
  bold: '\x1b[1m',
  green: '\x1b[32m',
  red: '\x1b[31m',
  yellow: '\x1b[33m',
  blue: '\x1b[34m',
  magenta: '\x1b[35m',
  cyan: '\x1b[36m',
} as const

/** Received in cyan, published in magenta; QoS 0 dim, 1 blue, 2 yellow. */
const DIRECTION_COLOUR = { in: SGR.cyan, out: SGR.magenta } as const
const QOS_COLOUR = [SGR.dim, SGR.blue, SGR.yellow] as const

/** A streamed message: `[time] ← default t/1 q1 r {"a":1} (7 B)`; topic and payload escaped. */
function formatStream(entry: TerminalEntry, stream: NonNullable<TerminalEntry['stream']>, labels: FormatLabels): string {
  const colour = DIRECTION_COLOUR[stream.direction]
  const arrow = stream.direction === 'in' ? '←' : '→'
  const time = `${SGR.dim}[${formatTime(entry.time)}]${SGR.reset}`
  const qos = `${QOS_COLOUR[stream.qos]}q${stream.qos}${SGR.reset}`
  const retain = stream.retain ? ` ${SGR.bold}r${SGR.reset}` : ''
  const payload = stream.tooLarge
    ? `${SGR.dim}${escapeControl(labels.tooLarge ?? '')}${SGR.reset}`
    : `${escapeControl(stream.payload)}${stream.truncated ? '…' : ''}`
  return `${time} ${colour}${arrow} ${escapeControl(entry.source)} ${escapeControl(stream.topic)}${SGR.reset} ${qos}${retain} ${payload} ${SGR.dim}(${stream.bytes} B)${SGR.reset}\r\n`
}

export interface FormatLabels {
  cancelled: string
  invalid: string
  /** For streamed messages whose payload is over 1 MB. */
  tooLarge?: string
}

/** One entry as one terminal line (ending in CRLF): `[12:00:01] client.kick clientid=abc → ok`. */
export function formatEntry(entry: TerminalEntry, labels: FormatLabels): string {
  if (entry.stream) return formatStream(entry, entry.stream, labels)
  const time = `${SGR.dim}[${formatTime(entry.time)}]${SGR.reset}`
  const head = `${time} ${SGR.bold}${escapeControl(entry.source)}${SGR.reset}${entry.args ? ` ${escapeControl(entry.args)}` : ''}`
  const message = entry.message ? escapeControl(entry.message) : ''
  switch (entry.status) {
    case 'ok':
      return `${head} → ${SGR.green}ok${SGR.reset}${message ? ` ${message}` : ''}\r\n`
    case 'error':
      return `${head} → ${SGR.red}error${message ? `: ${message}` : ''}${SGR.reset}\r\n`
    case 'invalid':
      return `${head} → ${SGR.red}${escapeControl(labels.invalid)}${message ? `: ${message}` : ''}${SGR.reset}\r\n`
    case 'cancelled':
      return `${head} → ${SGR.yellow}${escapeControl(labels.cancelled)}${SGR.reset}\r\n`
    default:
      return `${head}${message ? ` ${message}` : ''}\r\n`
  }
}

/** Plain text of an entry for the dock's status bar (no colours, controls escaped). */
export function summarizeEntry(entry: TerminalEntry, labels: FormatLabels): string {
  if (entry.stream) {
    const { direction, topic, qos, payload, tooLarge, bytes } = entry.stream
    return escapeControl(`[${formatTime(entry.time)}] ${direction === 'in' ? '←' : '→'} ${entry.source} ${topic} q${qos} ${tooLarge ? (labels.tooLarge ?? '') : payload} (${bytes} B)`)
  }
  const head = `[${formatTime(entry.time)}] ${entry.source}${entry.args ? ` ${entry.args}` : ''}`
  const message = entry.message ?? ''
  switch (entry.status) {
    case 'ok':
      return escapeControl(`${head} → ok${message ? ` ${message}` : ''}`)
    case 'error':
      return escapeControl(`${head} → error${message ? `: ${message}` : ''}`)
    case 'invalid':
      return escapeControl(`${head} → ${labels.invalid}${message ? `: ${message}` : ''}`)
    case 'cancelled':
      return escapeControl(`${head} → ${labels.cancelled}`)
    default:
      return escapeControl(message ? `${head} ${message}` : head)
  }
}
