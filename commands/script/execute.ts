// Running a plan: steps in order, stopping at the first failure unless told to go on; a dry run
// resolves entity arguments through the commands' completers and never runs anything.
import type { AnyCommand, CommandContext, Text } from '../define.ts'
import { describeArgs, quoteArg, type FieldDescriptor } from '../args.ts'
import { ApiError } from '../../contract/api-error.ts'
import type { PlanStep } from './plan.ts'

export type StepStatus = 'ok' | 'failed' | 'cancelled' | 'skipped' | 'checked'

export interface StepResult {
  /** 0-based position in the plan. */
  index: number
  step: PlanStep
  /**
   * ok: ran and succeeded; failed: ran and threw; cancelled: its confirmation was declined;
   * skipped: never ran (an earlier step stopped the script); checked: dry run, validated and resolved.
   */
  status: StepStatus
  result?: unknown
  /** The error a failed step threw, as `{code, message}`. */
  error?: { code: string; message: string }
  /** Dry run: arguments whose value the live API does not know (an i18n text each). */
  warnings?: (Text & { arg: string })[]
}

export interface ScriptRun {
  /** True when every step succeeded (or, in a dry run, was checked). */
  ok: boolean
  /** Nothing ran because dangerous steps were not confirmed up front. */
  refused: boolean
  results: StepResult[]
}

export interface ExecuteOptions {
  dryRun?: boolean
  continueOnError?: boolean
  /**
   * Dangerous steps need this: `true` when the operator confirmed the whole plan (the CLI's
   * `--yes`), or a function asked before each one (the palette's confirmation). Without it a plan
   * holding a dangerous step is refused before anything runs.
   */
  confirmDanger?: boolean | ((step: PlanStep, index: number) => boolean | Promise<boolean>)
  /** Told about each step as it starts, for progress. */
  onStart?(step: PlanStep, index: number): void
  /** Told about each step's outcome, skipped ones too, in order. */
  onStep?(result: StepResult): void
  /**
   * How a step runs; by default `command.run(ctx, args)`. The browser passes its command runner
   * so each step gets the same notification, history entry and terminal line as any command.
   */
  runStep?(step: PlanStep, ctx: CommandContext): Promise<unknown>
  signal?: AbortSignal
}

/** An error as `{code, message}`: the API's own code, else the error's name. */
export function stepError(error: unknown): { code: string; message: string } {
  if (error instanceof ApiError) return { code: error.code, message: error.message }
  if (error instanceof Error) return { code: error.name === 'Error' ? 'ERROR' : error.name, message: error.message || error.name }
  return { code: 'ERROR', message: String(error) }
}

async function resolveArgs(step: PlanStep, ctx: CommandContext, signal: AbortSignal): Promise<(Text & { arg: string })[]> {
  const warnings: (Text & { arg: string })[] = []
  const completers = step.command.complete ?? {}
  for (const [arg, complete] of Object.entries(completers)) {
    const value = step.args[arg]
    if (typeof value !== 'string' || value === '' || !complete) continue
    if (step.command.suggestOnly?.includes(arg)) continue
    try {
      const known = await complete(ctx.api, value, signal)
      if (!known.includes(value)) warnings.push({ arg, key: 'script.warn.notFound', values: { arg, value } })
    } catch (error) {
      warnings.push({ arg, key: 'script.warn.lookupFailed', values: { arg, value, message: stepError(error).message } })
    }
  }
  return warnings
}

/**
 * Runs the plan's steps in order. Stops at the first failed or cancelled step (the rest are
 * reported as skipped) unless `continueOnError`, which goes on past failures but not past a
 * declined confirmation.
 */
export async function executePlan(
  plan: { steps: readonly PlanStep[] } | readonly PlanStep[],
  ctx: CommandContext,
  options: ExecuteOptions = {},
): Promise<ScriptRun> {
  const steps = 'steps' in plan ? plan.steps : plan
  const signal = options.signal ?? new AbortController().signal
  const results: StepResult[] = []
  const report = (result: StepResult) => {
    results.push(result)
    options.onStep?.(result)
  }
  const skipFrom = (from: number) => {
    for (let i = from; i < steps.length; i++) report({ index: i, step: steps[i], status: 'skipped' })
  }

  if (options.dryRun) {
    for (const [index, step] of steps.entries()) {
      if (signal.aborted) {
        skipFrom(index)
        break
      }
      options.onStart?.(step, index)
      const warnings = await resolveArgs(step, ctx, signal)
      report({ index, step, status: 'checked', ...(warnings.length ? { warnings } : {}) })
    }
    return { ok: results.every((r) => r.status === 'checked'), refused: false, results }
  }

  if (!options.confirmDanger && steps.some((step) => step.confirm)) {
    skipFrom(0)
    return { ok: false, refused: true, results }
  }

  let ok = true
  for (const [index, step] of steps.entries()) {
    if (signal.aborted) {
      skipFrom(index)
      return { ok: false, refused: false, results }
    }
    if (step.confirm && typeof options.confirmDanger === 'function' && !(await options.confirmDanger(step, index))) {
      report({ index, step, status: 'cancelled' })
      skipFrom(index + 1)
      return { ok: false, refused: false, results }
    }
    options.onStart?.(step, index)
    try {
      const result = options.runStep ? await options.runStep(step, ctx) : await step.command.run(ctx, step.args as never)
      report({ index, step, status: 'ok', ...(result !== undefined ? { result } : {}) })
    } catch (error) {
      ok = false
      report({ index, step, status: 'failed', error: stepError(error) })
      if (!options.continueOnError) {
        skipFrom(index + 1)
        return { ok: false, refused: false, results }
      }
    }
  }
  return { ok, refused: false, results }
}

function isDefault(field: FieldDescriptor, value: unknown): boolean {
  return field.default !== undefined && Object.is(field.default, value)
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * A step written back as a script line that parses and validates to the same arguments: the
 * command's positional arguments first (bare), the rest as `key=value`, quoting where needed and
 * leaving out values equal to their defaults. The history's "copy as script" writes with this.
 */
export function formatScriptLine(command: Pick<AnyCommand, 'id' | 'args' | 'positional'>, args: Record<string, unknown>): string {
  const fields = describeArgs(command)
  const byName = new Map(fields.map((f) => [f.name, f]))
  const given = (name: string) => args[name] !== undefined
  const positional = ((command.positional ?? []) as string[]).filter((name) => byName.has(name))
  // Bare values fill positions in order, so a gap ends them; trailing defaults are left out.
  let count = 0
  while (count < positional.length && given(positional[count])) count++
  while (count > 0 && isDefault(byName.get(positional[count - 1])!, args[positional[count - 1]])) count--
  const bare = positional.slice(0, count)
  const words = [command.id, ...bare.map((name) => quoteArg(valueText(args[name])))]
  for (const field of fields) {
    if (bare.includes(field.name) || !given(field.name) || isDefault(field, args[field.name])) continue
    words.push(`${field.name}=${quoteArg(valueText(args[field.name]))}`)
  }
  // Names the schema does not know still go out, so validation says so instead of losing them.
  for (const [name, value] of Object.entries(args))
    if (!byName.has(name) && value !== undefined) words.push(`${name}=${quoteArg(valueText(value))}`)
  return words.join(' ')
}
