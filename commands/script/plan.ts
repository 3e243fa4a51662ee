// A script's plan: every line parsed and its arguments validated before anything runs. Either the
// whole list of steps, or every error found (line, column, argument and an i18n text).
import type { AnyCommand, Text } from '../define.ts'
import { validateArgs } from '../args.ts'
import { registry as defaultRegistry, type Registry } from '../registry.ts'
import { parseScript, rawArgs, type ScriptError } from './parse.ts'

export type { ScriptError } from './parse.ts'

export interface PlanStep {
  /** 1-based line of the script this step came from. */
  line: number
  command: AnyCommand
  /** Validated (coerced, defaults applied), ready for `run`. */
  args: Record<string, unknown>
  /** The arguments as written, for showing and for dry-run lookups. */
  raw: Record<string, string>
  /** Kick, delete, clear, ...: the plan marks it and running it needs a confirmation. */
  danger: boolean
  /** Dangerous, or the command asks first anyway (logout). */
  confirm: boolean
  /** What the step will do: the command's describe text, else its title. */
  describe: Text
  /** The line as written, without its comment. */
  text: string
}

export type Plan = { ok: true; steps: PlanStep[] } | { ok: false; errors: ScriptError[] }

export interface PlanOptions {
  /** 'cli' refuses commands that need the browser; 'browser' (default) allows them. */
  target?: 'browser' | 'cli'
  registry?: Registry
}

/** Parses and validates every line; nothing runs here. An empty script is a plan of no steps. */
export function planScript(text: string, options: PlanOptions = {}): Plan {
  const { lines, errors } = parseScript(text, options.registry ?? defaultRegistry)
  const steps: PlanStep[] = []
  for (const parsed of lines) {
    const { command } = parsed
    if (options.target === 'cli' && command.needsUi) {
      errors.push({ line: parsed.line, column: parsed.column, key: 'script.err.needsUi', values: { id: command.id } })
      continue
    }
    const raw = rawArgs(parsed)
    const result = validateArgs(command, raw)
    if (!result.ok) {
      for (const error of result.errors) {
        const at = error.field ? parsed.args[error.field] : undefined
        errors.push({
          line: parsed.line,
          // A missing argument points at the command, which is where it is missing from.
          column: at ? at.column : parsed.column,
          ...(error.field ? { arg: error.field } : {}),
          key: error.key,
          ...(error.values ? { values: error.values } : {}),
        })
      }
      continue
    }
    const args = result.value as Record<string, unknown>
    steps.push({
      line: parsed.line,
      command,
      args,
      raw,
      danger: Boolean(command.danger),
      confirm: Boolean(command.danger || command.confirm),
      describe: command.describe?.(args as never) ?? { key: command.title },
      text: parsed.text,
    })
  }
  if (errors.length) return { ok: false, errors: errors.sort((a, b) => a.line - b.line || a.column - b.column) }
  return { ok: true, steps }
}
