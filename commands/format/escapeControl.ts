// Text from clients (ids, usernames, topics, payloads) shown as text: every control character
// made visible as an escape (`\e`, `\n`, `\x07`, `\u202e`), so it can never move a terminal's
// cursor, clear its screen, reorder the line around it or draw as an empty box. The terminal pane,
// tables, lists and payload views all use this one function. Pure; no DOM.

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\x1b': '\\e' }

/**
 * C0 controls, DEL, C1 controls (0x80–0x9f: 8-bit CSI and friends), the line and paragraph
 * separators and the bidirectional embeddings, overrides and isolates.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
/** The same without line feed and tab, for views that show text over several lines. */
const CONTROL_KEEPING_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

function escapeOne(ch: string): string {
  const named = NAMED[ch]
  if (named) return named
  const code = ch.charCodeAt(0)
  return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`
}

export interface EscapeOptions {
  /** Keep line feeds and tabs as they are (a payload shown in a multi-line box). */
  keepLines?: boolean
}

/** The text with every control character written as an escape; other text is left alone. */
export function escapeControl(text: string, options: EscapeOptions = {}): string {
  return text.replace(options.keepLines ? CONTROL_KEEPING_LINES : CONTROL, escapeOne)
}

/** A cell or field value as text: strings escaped, numbers and booleans as written, nothing as ''. */
export function displayText(value: unknown): string {
  if (value === null || value === undefined) return ''
  return escapeControl(typeof value === 'string' ? value : String(value))
}
