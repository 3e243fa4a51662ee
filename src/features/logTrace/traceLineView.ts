// How one trace log line is drawn in the detail's xterm view: control characters and escapes in
// it written out (a payload can hold any byte), its event kind coloured, search matches marked.
// Pure; no DOM.
import { escapeControl } from '../../ui/escapeControl.ts'

const RESET = '\x1b[0m'
const INVERSE = '\x1b[7m'
const NO_INVERSE = '\x1b[27m'
const DIM = '\x1b[90m'

/**
 * ANSI colour of each event kind (the `[TAG]` of the text format, `trace_tag` of the JSON one). Blue
 * is the theme's primary colour, green in both themes, so it is left out to keep PUBLISH apart.
 */
const KIND_COLOUR: Record<string, string> = {
  MQTT: '\x1b[36m',
  PUBLISH: '\x1b[32m',
  SUBSCRIBE: '\x1b[35m',
  UNSUBSCRIBE: '\x1b[35m',
  AUTHN: '\x1b[33m',
  AUTHZ: '\x1b[33m',
  SOCKET: DIM,
}
const RULE_COLOUR = '\x1b[35m'
const PROBLEM_COLOUR = '\x1b[31m'

// A ?TRACE line (`<time> [TAG] ...`), or one of the client's own log lines that 5.8 also writes
// to a trace (`<time> [level] tag: TAG, ...`, `"tag":"TAG"` in JSON).
const TEXT_HEAD = /^(\S+) (?:\[([A-Z_]+)\] |\[[a-z]+\] tag: ([A-Z_]+),)/
const JSON_TAG = /"(?:trace_)?tag":"([A-Z_]+)"/

/** The event kind of a line in either format, or undefined. */
export function traceKind(line: string): string | undefined {
  const head = TEXT_HEAD.exec(line)
  return head ? (head[2] ?? head[3]) : JSON_TAG.exec(line)?.[1]
}

function kindColour(kind: string | undefined, line: string): string {
  if (/\bmsg: \w*(fail|error|drop|discard)/i.test(line) || /"msg":"\w*(fail|error|drop|discard)/i.test(line)) return PROBLEM_COLOUR
  if (!kind) return ''
  // The rule engine's and its actions' lines: a rule's run, an action's start and result, what a driver rendered.
  return KIND_COLOUR[kind] ?? (/RULE|ACTION|SQL|QUERY/.test(kind) ? RULE_COLOUR : '')
}

/** Every place `query` occurs in `text`, ignoring case. */
function matches(text: string, query: string): Array<[number, number]> {
  if (!query) return []
  const found: Array<[number, number]> = []
  const lower = text.toLowerCase()
  const needle = query.toLowerCase()
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) found.push([at, at + needle.length])
  return found
}

/** True when the line holds the query (every line when there is none). */
export function lineMatches(line: string, query: string): boolean {
  return !query || escapeControl(line).toLowerCase().includes(query.toLowerCase())
}

/**
 * The line as xterm writes it, ending in CRLF: the time dimmed, the line in its kind's colour,
 * the query's matches in inverse video. Only our own escapes reach the terminal.
 */
export function renderTraceLine(line: string, query = ''): string {
  const text = escapeControl(line)
  const colour = kindColour(traceKind(line), line)
  const head = TEXT_HEAD.exec(text)
  const timeEnd = head ? head[1].length : 0
  let out = ''
  let at = 0
  const plain = (from: number, to: number, inverse = false) => {
    // The time part dimmed, the rest in the kind's colour (RESET ends the dimming, so both come back).
    if (from < timeEnd) out += DIM + text.slice(from, Math.min(to, timeEnd)) + RESET + colour + (inverse ? INVERSE : '')
    if (to > timeEnd) out += text.slice(Math.max(from, timeEnd), to)
  }
  out += colour
  for (const [from, to] of matches(text, query)) {
    plain(at, from)
    out += INVERSE
    plain(from, to, true)
    out += NO_INVERSE
    at = to
  }
  plain(at, text.length)
  return `${out}${RESET}\r\n`
}
