// Terminal lines from log entries: ANSI colours for status, and every control character in
// user-provided text (ids, payloads, messages) made visible so it can never move the cursor,
// change colours or clear the screen. Pure; tested without a DOM.
import type { TerminalEntry } from '../../state/terminalLog.ts'

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\x1b': '\\e' }

/** C0 controls, DEL and C1 controls (0x80–0x9f: 8-bit CSI and friends) become `\xNN` text. */
export function escapeControl(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (ch) => NAMED[ch] ?? `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

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
} as const

export interface FormatLabels {
  cancelled: string
  invalid: string
}

/** One entry as one terminal line (ending in CRLF): `[12:00:01] client.kick clientid=abc → ok`. */
export function formatEntry(entry: TerminalEntry, labels: FormatLabels): string {
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
