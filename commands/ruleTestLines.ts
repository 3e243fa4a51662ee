// What a saved-rule test that stops after rendering wrote into a rule-id trace, per output of the rule:
// the `action_template_rendered` (QUERY_RENDER) line's request and the ACTION line that ended it
// (`action_stopped_after_template_rendering` with its reason, or a failure). Lines come in 5.8's JSON
// formatter (`{msg, meta}`) or its text formatter (`<time> [TAG] who@ msg: <msg>, key: value, ...`);
// only lines of a test (`stop_action_after_render: true`) count, so live traffic in a trace the
// operator already runs is left out.

/** One output of the rule: what it rendered (undefined: no render line) and how it ended. */
export interface ActionRender {
  /** `http:hook` for an action, the function's name (`republish`, `console`) for a built-in output. */
  action: string
  /** The rendered request: an object from a JSON trace, the `result` text of a text trace. */
  rendered: Record<string, unknown> | string | undefined
  /** The reason of the line that ended the action (stopped after rendering, failed), '' when none came. */
  outcome: string
}

/** How a rule names one of its outputs: an action id as it is, a built-in output by its function. */
export function outputKey(output: string | { function: string }): string {
  return typeof output === 'string' ? output : output.function
}

const RENDERED = 'action_template_rendered'
/** The ACTION lines that end an output in a test (5.8's `emqx_rule_runtime`). */
const ENDINGS = new Set(['action_stopped_after_template_rendering', 'action_failed', 'action_success', 'discarded', 'out_of_service'])

interface TestLine {
  msg: string
  /** The output the line is about (`http:hook`, `republish`), when it names one. */
  key: string | undefined
  result: Record<string, unknown> | string | undefined
  reason: string | undefined
}

/** `action:http:hook:connector:http:hook` or `{type, name}` or `{mod, func}` as an output key. */
function keyOf(value: unknown): string | undefined {
  if (typeof value === 'string') return /^action:([^:]+):([^:]+):connector:/.exec(value)?.slice(1, 3).join(':')
  if (!value || typeof value !== 'object') return undefined
  const info = value as Record<string, unknown>
  if (typeof info.type === 'string' && typeof info.name === 'string') return `${info.type}:${info.name}`
  return typeof info.func === 'string' ? info.func : undefined
}

const reasonText = (reason: unknown) => (reason === undefined ? undefined : typeof reason === 'string' ? reason : JSON.stringify(reason))

function jsonLine(line: string): TestLine | undefined {
  let entry: unknown
  try {
    entry = JSON.parse(line)
  } catch {
    return undefined
  }
  if (!entry || typeof entry !== 'object') return undefined
  const { msg, meta } = entry as { msg?: unknown; meta?: Record<string, unknown> }
  if (typeof msg !== 'string' || !meta || meta.stop_action_after_render !== true) return undefined
  const result = meta.result
  return {
    msg,
    key: keyOf(meta.action_info) ?? keyOf(meta.action_id),
    result: result && typeof result === 'object' ? (result as Record<string, unknown>) : typeof result === 'string' ? result : undefined,
    reason: reasonText(meta.reason ?? meta.cause),
  }
}

/** The value of `key: ` in a text line's fields, up to the next top-level `, name: ` (brackets nest). */
function textField(fields: string, key: string): string | undefined {
  const inner = fields.indexOf(`, ${key}: `)
  const at = fields.startsWith(`${key}: `) ? 0 : inner < 0 ? -1 : inner + 2
  if (at < 0) return undefined
  const start = at + key.length + 2
  let depth = 0
  for (let i = start; i < fields.length; i++) {
    const c = fields[i]
    if (c === '[' || c === '{') depth++
    else if (c === ']' || c === '}') depth--
    else if (depth === 0 && fields.startsWith(', ', i) && /^[a-z_]+: /.test(fields.slice(i + 2))) return fields.slice(start, i)
  }
  return fields.slice(start)
}

function textLine(line: string): TestLine | undefined {
  const match = / msg: ([A-Za-z_]+)(?:, (.*))?$/.exec(line)
  if (!match || !line.includes('stop_action_after_render: true')) return undefined
  const fields = match[2] ?? ''
  const info = textField(fields, 'action_info')
  const id = textField(fields, 'action_id')
  const func = info && /(?:^|\[|, )func: ([A-Za-z_]+)/.exec(info)?.[1]
  const named = info && /name: ([^,\]]+)/.exec(info)?.[1]
  const type = info && /type: ([^,\]]+)/.exec(info)?.[1]
  const idFunc = id && /func: ([A-Za-z_]+)/.exec(id)?.[1]
  return {
    msg: match[1],
    key: func || (named && type ? `${type}:${named}` : undefined) || keyOf(id) || idFunc || undefined,
    result: textField(fields, 'result'),
    reason: textField(fields, 'reason') ?? textField(fields, 'cause'),
  }
}

/** A trace's line of a test, in either formatter; undefined for any other line. */
export function testLine(line: string): TestLine | undefined {
  const trimmed = line.trim()
  if (!trimmed) return undefined
  return trimmed.startsWith('{') ? jsonLine(trimmed) : textLine(trimmed)
}

/**
 * The outputs of a rule with what the trace text holds of each. Several outputs of one key (two
 * republish outputs) take that key's lines in the order they were written, as the rule runs them.
 */
export function collectRenders(outputs: readonly string[], text: string): ActionRender[] {
  const renders = outputs.map((action): ActionRender => ({ action, rendered: undefined, outcome: '' }))
  const nextRender = new Map<string, number>()
  const nextEnding = new Map<string, number>()
  const nth = (key: string, counters: Map<string, number>) => {
    const seen = counters.get(key) ?? 0
    counters.set(key, seen + 1)
    return renders.filter((render) => render.action === key)[seen]
  }
  for (const line of text.split('\n')) {
    const parsed = testLine(line)
    if (!parsed?.key) continue
    if (parsed.msg === RENDERED) {
      const render = nth(parsed.key, nextRender)
      if (render) render.rendered = parsed.result
    } else if (ENDINGS.has(parsed.msg)) {
      const render = nth(parsed.key, nextEnding)
      if (render) render.outcome = parsed.reason ?? parsed.msg
    }
  }
  return renders
}

/**
 * Every action (`type:name`) has its ending line: they are sent by their buffer workers after the test
 * call answers; built-in outputs (republish, console) run in the call itself, so they are waited for not.
 */
export const allEnded = (renders: readonly ActionRender[]) => renders.every((render) => render.outcome !== '' || !render.action.includes(':'))
