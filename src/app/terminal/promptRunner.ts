// What a line typed at the terminal prompt does: it is planned exactly as a script line (the same
// parser and validation; problems printed under it, pointing at their column), then run through
// the app's command runner (the same confirmation, history entry and terminal line as the
// palette). A read command's table is printed fitted to the pane. A pasted block is a script: its
// plan is printed and it runs after one confirmation, as the palette's script view runs one.
// No React here: usePromptRunner.ts hands in the runner, the confirmation and the translations.
import type { AnyCommand, CommandContext, Text } from '../../../commands/define.ts'
import { renderTable } from '../../../commands/format/table.ts'
import { escapeControl } from '../../../commands/format/escapeControl.ts'
import { executePlan } from '../../../commands/script/execute.ts'
import { planScript, type PlanStep, type ScriptError } from '../../../commands/script/plan.ts'
import type { RunOptions, RunResult } from '../commands/runner.ts'

export interface PromptRunnerDeps {
  run(command: AnyCommand, raw: Record<string, unknown>, options: RunOptions): Promise<RunResult>
  /** Asks once before a pasted script runs; true to go on. */
  confirmScript(steps: readonly PlanStep[]): Promise<boolean>
  ctx: CommandContext
  /** Output above the prompt (CRLF line ends); log lines waiting to be drawn are drawn first. */
  print(text: string): void
  columns(): number
  t(key: string, values?: Record<string, string | number>): string
  /** Aborted by Ctrl+C: a script stops before its next step. */
  signal: AbortSignal
}

const RED = '\x1b[31m'
const DIM = '\x1b[90m'
const YELLOW = '\x1b[33m'
const RESET = '\x1b[0m'

const translate = (deps: PromptRunnerDeps) => (text: Text) => deps.t(text.key, text.values)

/** Problems of a line or a script: where (line and column for a script) and what, in red. */
function errorLines(errors: readonly ScriptError[], script: boolean, deps: PromptRunnerDeps): string {
  return errors
    .map((error) => {
      const at = script ? `${deps.t('scriptView.at', { line: error.line, column: error.column })}: ` : `${' '.repeat(error.column + 1)}^ `
      return `${RED}${at}${escapeControl(deps.t(error.key, error.values))}${RESET}\r\n`
    })
    .join('')
}

function printTable(command: AnyCommand, result: unknown, deps: PromptRunnerDeps): void {
  const table = command.table?.(result)
  if (!table) return
  const lines = renderTable(table, { width: deps.columns(), colour: true }, translate(deps))
  deps.print(lines.map((line) => `${line}\r\n`).join(''))
}

/** One typed line. Nothing to run (blank, a comment) prints nothing. */
export async function runPromptLine(line: string, deps: PromptRunnerDeps): Promise<void> {
  const plan = planScript(line)
  if (!plan.ok) return deps.print(errorLines(plan.errors, false, deps))
  for (const step of plan.steps) {
    // The terminal line the runner writes is the outcome; no toast on top of it.
    const result = await deps.run(step.command, step.raw, { source: 'script', notifySuccess: false, notifyFailure: false })
    if (result.ok) printTable(step.command, result.result, deps)
  }
}

/** The plan of a pasted script, a step a line, dangerous steps marked. */
function planLines(steps: readonly PlanStep[], deps: PromptRunnerDeps): string {
  const width = Math.min(48, Math.max(...steps.map((s) => s.text.length)))
  return steps
    .map((step, i) => {
      const mark = step.danger ? `${RED}${deps.t('scriptView.danger')}${RESET} ` : ''
      const text = step.text.length > width ? `${step.text.slice(0, width - 1)}…` : step.text.padEnd(width)
      return `${DIM}${String(i + 1).padStart(3)}${RESET}  ${escapeControl(text)}  ${mark}${DIM}${escapeControl(deps.t(step.describe.key, step.describe.values))}${RESET}\r\n`
    })
    .join('')
}

/** A pasted block: planned whole, its plan printed, then run after one confirmation. */
export async function runPromptScript(text: string, deps: PromptRunnerDeps): Promise<void> {
  const plan = planScript(text)
  if (!plan.ok) return deps.print(`${RED}${deps.t('scriptView.errors', { count: plan.errors.length })}${RESET}\r\n${errorLines(plan.errors, true, deps)}`)
  if (plan.steps.length === 0) return
  deps.print(`${deps.t('scriptView.planLabel')}: ${deps.t('scriptView.steps', { count: plan.steps.length })}\r\n${planLines(plan.steps, deps)}`)
  if (!(await deps.confirmScript(plan.steps))) return deps.print(`${YELLOW}${deps.t('terminal.cancelled')}${RESET}\r\n`)
  const outcome = await executePlan(plan, deps.ctx, {
    // The operator confirmed the whole script at once; nothing asks again per step.
    confirmDanger: true,
    signal: deps.signal,
    runStep: async (step) => {
      const result = await deps.run(step.command, step.raw, { confirmed: true, source: 'script', notifySuccess: false, notifyFailure: false })
      if (!result.ok) throw new Error(result.error.kind === 'failed' ? result.error.message : result.error.kind)
      printTable(step.command, result.result, deps)
      return result.result
    },
  })
  const count = (status: string) => outcome.results.filter((r) => r.status === status).length
  const total = plan.steps.length
  const summary = outcome.ok
    ? deps.t('scriptView.summary.ok', { count: total })
    : deps.signal.aborted && count('failed') === 0
      ? deps.t('scriptView.summary.aborted', { ok: count('ok'), total })
      : deps.t('scriptView.summary.stopped', { ok: count('ok'), total, line: outcome.results.find((r) => r.status === 'failed')?.step.line ?? '?' })
  deps.print(`${outcome.ok ? '' : RED}${summary}${RESET}\r\n`)
}
