// What the CLI prints: texts in English from locales/en.json, plans, step outcomes and the command
// list, as lines for people or JSON objects for programs.
import { readFileSync } from 'node:fs'
import type { AnyCommand, Text } from '../commands/define.ts'
import { describeArgs, type FieldDescriptor } from '../commands/args.ts'
import type { PlanStep, ScriptError } from '../commands/script/plan.ts'
import type { ScriptRun, StepResult } from '../commands/script/execute.ts'
import { renderTable } from '../commands/format/table.ts'

type Tree = { [key: string]: string | Tree }

let english: Tree | undefined

function lookup(key: string): string | undefined {
  english ??= JSON.parse(readFileSync(new URL('../locales/en.json', import.meta.url), 'utf8')) as Tree
  let node: string | Tree | undefined = english
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined
    node = node[part]
  }
  return typeof node === 'string' ? node : undefined
}

/** The English text of an i18n key with `{{name}}` values filled in; the key itself when missing. */
export function t(key: string, values?: Record<string, string | number>): string {
  const template = lookup(key) ?? key
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (values && name in values ? String(values[name]) : whole))
}

export function text(value: Text): string {
  return t(value.key, value.values)
}

/**
 * `incident.txt:2:25: Must be one of: 0, 1, 2 (argument qos)`, as compilers report: the argument
 * is named unless the message already names it (`Unknown argument foo for client.kick`).
 */
export function errorLine(source: string, error: ScriptError): string {
  const message = text(error)
  const arg = error.arg && !message.includes(error.arg) ? ` (argument ${error.arg})` : ''
  return `${source}:${error.line}:${error.column}: ${message}${arg}`
}

export function errorJson(error: ScriptError): Record<string, unknown> {
  return {
    type: 'error',
    line: error.line,
    column: error.column,
    ...(error.arg ? { arg: error.arg } : {}),
    key: error.key,
    ...(error.values ? { values: error.values } : {}),
    message: text(error),
  }
}

function stepWords(step: PlanStep): string {
  return step.text.trim()
}

/** How wide the step column is, so the plan and the results line up. */
export function stepWidth(steps: readonly PlanStep[]): number {
  return Math.min(60, Math.max(0, ...steps.map((s) => stepWords(s).length)))
}

/** The plan as a table: number, line, the step as written, and what it will do, dangerous steps marked. */
export function planLines(steps: readonly PlanStep[], source: string): string[] {
  const width = stepWidth(steps)
  const lines = [`Plan: ${steps.length} step${steps.length === 1 ? '' : 's'} from ${source}`]
  steps.forEach((step, i) => {
    const mark = step.danger ? 'danger' : step.confirm ? 'confirm' : ''
    const words = stepWords(step)
    lines.push(`${mark.padEnd(9)} ${String(i + 1).padStart(3)}  line ${String(step.line).padEnd(4)} ${words.padEnd(width)}  ${text(step.describe)}`)
  })
  return lines
}

export function planJson(steps: readonly PlanStep[]): Record<string, unknown> {
  return {
    type: 'plan',
    steps: steps.map((step, i) => ({
      step: i + 1,
      line: step.line,
      command: step.command.id,
      args: step.args,
      danger: step.danger,
      confirm: step.confirm,
      describe: text(step.describe),
    })),
  }
}

export function compact(value: unknown, max = 200): string {
  const json = JSON.stringify(value)
  if (json === undefined) return ''
  return json.length > max ? `${json.slice(0, max - 1)}…` : json
}

/** A failed step's `CODE: message` (the code alone when the message only repeats it). */
export function failureText(error: { code: string; message?: string }): string {
  return error.message && error.message !== error.code ? `${error.code}: ${error.message}` : error.code
}

export function stepLine(result: StepResult, width = 0): string {
  const head = `${result.status.padEnd(9)} ${String(result.index + 1).padStart(3)}  line ${String(result.step.line).padEnd(4)} ${stepWords(result.step).padEnd(width)}`
  const tail: string[] = []
  if (result.error) tail.push(failureText(result.error))
  // A read command's rows follow as a table (tableLines), not squeezed into the step's line.
  else if (result.result !== undefined && result.status === 'ok' && !result.step.command.table?.(result.result)) tail.push(compact(result.result))
  for (const warning of result.warnings ?? []) tail.push(`warning: ${text(warning)}`)
  return tail.length ? `${head}  ${tail.join('; ')}` : head.trimEnd()
}

/** A read command's result as a table `width` columns wide, indented under its step; none for other steps. */
export function tableLines(result: StepResult, width: number): string[] {
  const table = result.status === 'ok' ? result.step.command.table?.(result.result) : undefined
  return table ? renderTable(table, { width: Math.max(20, width - 2) }, text).map((line) => `  ${line}`) : []
}

export function stepJson(result: StepResult): Record<string, unknown> {
  return {
    type: 'step',
    step: result.index + 1,
    line: result.step.line,
    command: result.step.command.id,
    args: result.step.args,
    status: result.status,
    ...(result.result !== undefined ? { result: result.result } : {}),
    ...(result.error ? { error: result.error } : {}),
    ...(result.warnings ? { warnings: result.warnings.map((w) => ({ arg: w.arg, key: w.key, values: w.values, message: text(w) })) } : {}),
  }
}

function counts(run: ScriptRun) {
  const count = (status: StepResult['status']) => run.results.filter((r) => r.status === status).length
  return { ok: count('ok'), failed: count('failed'), cancelled: count('cancelled'), skipped: count('skipped'), checked: count('checked') }
}

export function summaryLine(run: ScriptRun, dryRun: boolean): string {
  const c = counts(run)
  if (dryRun) {
    const warned = run.results.filter((r) => r.warnings?.length).length
    return `Dry run: ${c.checked} step${c.checked === 1 ? '' : 's'} checked, ${warned} with warnings; nothing was changed`
  }
  // 'Stopped' only when steps were left out; with --continue-on-error every step ran.
  const outcome = run.ok ? 'Done' : c.skipped > 0 || c.cancelled > 0 || run.refused ? 'Stopped' : 'Finished with failures'
  return `${outcome}: ${c.ok} ok, ${c.failed} failed, ${c.skipped} not run`
}

export function summaryJson(run: ScriptRun, dryRun: boolean): Record<string, unknown> {
  const c = counts(run)
  return { type: 'summary', ok: run.ok, dryRun, refused: run.refused, succeeded: c.ok, failed: c.failed, cancelled: c.cancelled, skipped: c.skipped, checked: c.checked }
}

function typeOf(field: FieldDescriptor): string {
  if (field.kind === 'enum') return (field.options ?? []).map(String).join('|')
  const bounds =
    field.min !== undefined || field.max !== undefined
      ? ` ${field.kind === 'string' ? 'length ' : ''}${field.min ?? ''}..${field.max ?? ''}`
      : ''
  return `${field.integer ? 'integer' : field.kind}${bounds}`
}

function positionalOrder(command: AnyCommand): string[] {
  return (command.positional ?? []) as string[]
}

/** One command with its arguments, for `emqx-console commands --json`. */
export function commandJson(command: AnyCommand): Record<string, unknown> {
  return {
    id: command.id,
    title: t(command.title),
    group: t(command.group),
    danger: Boolean(command.danger),
    confirm: Boolean(command.danger || command.confirm),
    browserOnly: Boolean(command.needsUi),
    positional: positionalOrder(command),
    ...(command.shortcut ? { shortcut: command.shortcut } : {}),
    args: describeArgs(command).map((field) => ({
      name: field.name,
      type: field.kind,
      required: field.required,
      ...(field.position !== undefined ? { position: field.position + 1 } : {}),
      ...(field.options ? { options: field.options } : {}),
      ...(field.min !== undefined ? { min: field.min } : {}),
      ...(field.max !== undefined ? { max: field.max } : {}),
      ...(field.integer ? { integer: true } : {}),
      ...(field.default !== undefined ? { default: field.default } : {}),
      label: t(field.label),
      ...(field.description ? { hint: t(field.description) } : {}),
      ...(command.complete && field.name in command.complete ? { completes: true } : {}),
    })),
  }
}

/** `client.kick <clientid>  Kick out client  [danger]` and one indented line per argument. */
export function commandLines(command: AnyCommand): string[] {
  const fields = describeArgs(command)
  const positional = positionalOrder(command)
  const required = (name: string) => Boolean(fields.find((f) => f.name === name)?.required)
  // An optional positional before a required one must still be written (`banned.create clientid bob`).
  const usage = [
    command.id,
    ...positional.map((name, i) => (positional.slice(i).some(required) ? `<${name}>` : `[${name}]`)),
  ].join(' ')
  const flags = [command.danger ? 'danger' : command.confirm ? 'asks to confirm' : '', command.needsUi ? 'browser only' : '']
    .filter(Boolean)
    .map((flag) => `[${flag}]`)
  const lines = [`${usage.padEnd(40)} ${t(command.title)}${flags.length ? `  ${flags.join(' ')}` : ''}`]
  const width = Math.max(0, ...fields.map((f) => f.name.length))
  for (const field of fields) {
    const notes = [
      typeOf(field),
      field.required ? 'required' : field.default !== undefined ? `default ${JSON.stringify(field.default)}` : 'optional',
      field.position !== undefined ? `positional ${field.position + 1}` : '',
    ].filter(Boolean)
    lines.push(`    ${field.name.padEnd(width)}  ${notes.join(', ')}`)
  }
  return lines
}
