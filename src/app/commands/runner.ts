// The one path every command run takes, whoever starts it (palette, button, shortcut, script):
// validate, confirm when asked to, run, notify, and write a line to the terminal log.
// No React here; useRunCommand.ts wires it to the app's hooks.
import { CommandError, type AnyCommand, type Command, type CommandContext, type ArgsSchema, type ApiArea, type LiveOutput, type Text } from '../../../commands/define.ts'
import { formatArgs, maskSecrets, validateArgs, withoutSecrets, type FieldError } from '../../../commands/args.ts'
import { ApiError } from '../../../contract/api-error.ts'
import type { HistoryInput, HistorySource } from '../../state/history.ts'
import type { NotificationInput } from '../../state/notifications.ts'
import type { TerminalLog } from '../../state/terminalLog.ts'
import type { ConfirmRequest } from '../../ui/Confirm.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'

export interface RunOptions {
  /** The caller has already asked (the palette's confirmation step). */
  confirmed?: boolean
  /** Show a toast when it succeeds; default: only for commands that are not browser-only. */
  notifySuccess?: boolean
  /** Show a toast when it fails; default true. False when the caller shows the failure in place (the rule test runner). */
  notifyFailure?: boolean
  /** Who started it, for the history; default 'button'. */
  source?: HistorySource
  /**
   * The caller shows the result itself (the API Key screen shows a new secret in its dialog, once):
   * the notification and the terminal line say only that it succeeded.
   */
  showsResult?: boolean
  /** Where a streaming command writes instead of the page's live streams (the prompt redraws watch's frames in place). */
  live?: LiveOutput
}

export type RunError =
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'cancelled' }
  | { kind: 'needsUi' }
  | { kind: 'failed'; error: unknown; message: string }

export type RunResult<R = unknown> = { ok: true; result: R } | { ok: false; error: RunError }

export type Translate = (key: string, values?: Record<string, string | number>) => string

export interface RunnerDeps {
  ctx: CommandContext
  confirm(request: ConfirmRequest): Promise<boolean>
  notify(input: NotificationInput): void
  log: TerminalLog
  t: Translate
  /** Called after a successful run with the API areas the command changes (its `changes`). */
  changed?(areas: readonly ApiArea[]): void
  /** Keeps a command that ran (succeeded or failed) in the history; not called when it never ran. */
  record?(entry: HistoryInput): void
}

/** How an error reads to the operator: `CODE: message` for the API, 'Network Error' offline. */
export function errorMessage(error: unknown, t: Translate): string {
  if (error instanceof CommandError) return error.translate(t)
  if (error instanceof ApiError) {
    if (error.status === 0 && (error.code === 'NETWORK_ERROR' || error.code === 'ECONNABORTED'))
      return t('common.networkError')
    return error.message && error.message !== error.code ? `${error.code}: ${error.message}` : error.code
  }
  if (error instanceof Error) return error.message || error.name
  return String(error)
}

export function translateText(text: Text, t: Translate): string {
  return t(text.key, text.values)
}

/** What the command will do, in words: its own describe text, else "Run “Title”?". */
export function describeRun(command: AnyCommand, args: unknown, t: Translate): string {
  const text = command.describe?.(args as never)
  // Shown in confirmations: a client id's control characters are written out, not acted on.
  return escapeControl(text ? translateText(text, t) : t('confirm.default', { title: t(command.title) }))
}

export async function executeCommand<S extends ArgsSchema, R>(
  command: Command<S, R>,
  rawArgs: Record<string, unknown>,
  deps: RunnerDeps,
  options: RunOptions = {},
): Promise<RunResult<R>> {
  const { t, log } = deps
  const title = t(command.title)
  const validation = validateArgs(command, rawArgs)
  if (!validation.ok) {
    const first = validation.errors[0]
    const detail = validation.errors
      .map((e) => (e.field ? `${e.field}: ${t(e.key, e.values)}` : t(e.key, e.values)))
      .join('; ')
    log.append({ source: command.id, args: formatArgs(maskSecrets(command as unknown as AnyCommand, rawArgs)), status: 'invalid', message: detail })
    deps.notify({ kind: 'error', text: t('notify.invalid', { title, message: first ? t(first.key, first.values) : '' }) })
    return { ok: false, error: { kind: 'invalid', errors: validation.errors } }
  }
  const args = validation.value
  const argText = formatArgs(maskSecrets(command as unknown as AnyCommand, args as Record<string, unknown>))
  const keptArgs = withoutSecrets(command as unknown as AnyCommand, args as Record<string, unknown>)

  if (command.needsUi && !deps.ctx.ui) {
    const message = t('notify.needsUi')
    log.append({ source: command.id, args: argText, status: 'error', message })
    deps.notify({ kind: 'error', text: message })
    return { ok: false, error: { kind: 'needsUi' } }
  }

  if ((command.danger || command.confirm) && !options.confirmed) {
    const accepted = await deps.confirm({
      title,
      text: describeRun(command as unknown as AnyCommand, args, t),
      danger: Boolean(command.danger),
    })
    if (!accepted) {
      log.append({ source: command.id, args: argText, status: 'cancelled' })
      return { ok: false, error: { kind: 'cancelled' } }
    }
  }

  try {
    const result = await command.run(options.live ? { ...deps.ctx, live: options.live } : deps.ctx, args)
    const said = options.showsResult ? undefined : command.resultText?.(result)
    const resultMessage = said ? translateText(said, t) : undefined
    log.append({ source: command.id, args: argText, status: 'ok', ...(resultMessage ? { message: resultMessage } : {}) })
    // A secret (an API key's) is shown once, here: never kept in the history (localStorage).
    deps.record?.({ id: command.id, args: keptArgs, ok: true, ...(command.secretResult ? {} : { result }), source: options.source ?? 'button' })
    if (command.changes?.length) deps.changed?.(command.changes)
    if (options.notifySuccess ?? !command.needsUi)
      deps.notify({
        kind: 'success',
        text: resultMessage ? t('notify.succeededWith', { title, result: resultMessage }) : t('notify.succeeded', { title }),
        ...(command.secretResult && resultMessage ? { timeout: 0 } : {}),
      })
    return { ok: true, result }
  } catch (error) {
    const message = errorMessage(error, t)
    log.append({ source: command.id, args: argText, status: 'error', message })
    deps.record?.({ id: command.id, args: keptArgs, ok: false, message, source: options.source ?? 'button' })
    // An expired session is announced once by the session handler ('Login has expired').
    const expired = error instanceof ApiError && error.status === 401
    if (!expired && (options.notifyFailure ?? true)) deps.notify({ kind: 'error', text: t('notify.failed', { title, message }) })
    return { ok: false, error: { kind: 'failed', error, message } }
  }
}

/** One row of a bulk run: the key the caller knows it by (a client id) and its own result. */
export interface BulkRow<R = unknown> {
  key: string
  result: RunResult<R>
}

/** How many rows a confirmation lists by name before 'and N more'. */
export const BULK_LISTED = 10

/**
 * Runs one command for several rows (the selected rows of a table): every row is validated before
 * any runs, one confirmation lists them all, then each runs in turn with its own terminal line
 * and the operator gets one notification summing them up.
 */
export async function executeBulk<S extends ArgsSchema, R>(
  command: Command<S, R>,
  rows: readonly { key: string; args: Record<string, unknown> }[],
  deps: RunnerDeps,
  options: RunOptions = {},
): Promise<BulkRow<R>[]> {
  const { t, log } = deps
  const title = t(command.title)
  const checked = rows.map((row) => ({ row, validation: validateArgs(command, row.args) }))
  const invalid = checked.filter((c) => !c.validation.ok)
  if (invalid.length) {
    for (const { row, validation } of invalid) {
      const errors = validation.ok ? [] : validation.errors
      log.append({ source: command.id, args: formatArgs(maskSecrets(command as unknown as AnyCommand, row.args)), status: 'invalid', message: errors.map((e) => `${e.field}: ${t(e.key, e.values)}`).join('; ') })
    }
    const first = invalid[0].validation
    const firstError = first.ok ? undefined : first.errors[0]
    deps.notify({ kind: 'error', text: t('notify.invalid', { title, message: firstError ? t(firstError.key, firstError.values) : '' }) })
    return checked.map(({ row, validation }) => ({
      key: row.key,
      result: validation.ok ? { ok: false, error: { kind: 'cancelled' } } : { ok: false, error: { kind: 'invalid', errors: validation.errors } },
    }))
  }

  if ((command.danger || command.confirm) && !options.confirmed) {
    const items = checked.map(({ validation }) => describeRun(command as unknown as AnyCommand, validation.ok ? validation.value : {}, t))
    const accepted = await deps.confirm({
      title,
      text: bulkConfirmText(command as unknown as AnyCommand, rows.length, t),
      items,
      danger: Boolean(command.danger),
    })
    if (!accepted) {
      for (const { row } of checked) log.append({ source: command.id, args: formatArgs(maskSecrets(command as unknown as AnyCommand, row.args)), status: 'cancelled' })
      return rows.map((row) => ({ key: row.key, result: { ok: false, error: { kind: 'cancelled' } } }))
    }
  }

  // Each row logs its own line; the per-row toasts are replaced by one summary below.
  const quiet: RunnerDeps = { ...deps, notify: () => undefined }
  const results: BulkRow<R>[] = []
  if (command.runMany) {
    const valid = checked.map(({ row, validation }) => ({ key: row.key, args: validation.ok ? validation.value : row.args }))
    results.push(...(await runTogether(command, valid, deps, options)))
  } else {
    for (const { row } of checked) {
      results.push({ key: row.key, result: await executeCommand(command, row.args, quiet, { ...options, confirmed: true, notifySuccess: false }) })
    }
  }
  const failed = results.filter((r) => !r.result.ok)
  if (failed.length === 0) deps.notify({ kind: 'success', text: t('notify.bulkSucceeded', { title, count: results.length }) })
  else {
    const error = failed[0].result.ok ? undefined : failed[0].result.error
    const message = error?.kind === 'failed' ? `${failed[0].key}: ${error.message}` : failed[0].key
    deps.notify({
      kind: 'error',
      text: t('notify.bulkFailed', { title, ok: results.length - failed.length, failed: failed.length, message }),
    })
  }
  return results
}

/** A command with `runMany`: every row in one request, then a terminal line and a history entry per row. */
async function runTogether<S extends ArgsSchema, R>(
  command: Command<S, R>,
  rows: readonly { key: string; args: unknown }[],
  deps: RunnerDeps,
  options: RunOptions,
): Promise<BulkRow<R>[]> {
  let outcomes: Array<R | Error>
  try {
    outcomes = await command.runMany!(deps.ctx, rows.map((row) => row.args as never))
    if (command.changes?.length) deps.changed?.(command.changes)
  } catch (error) {
    outcomes = rows.map(() => (error instanceof Error ? error : new Error(String(error))))
  }
  return rows.map((row, i): BulkRow<R> => {
    const outcome = outcomes[i]
    const args = row.args as Record<string, unknown>
    const message = outcome instanceof Error ? errorMessage(outcome, deps.t) : undefined
    const failure = message === undefined ? {} : { message }
    deps.log.append({ source: command.id, args: formatArgs(maskSecrets(command as unknown as AnyCommand, args)), status: message === undefined ? 'ok' : 'error', ...failure })
    deps.record?.({ id: command.id, args: withoutSecrets(command as unknown as AnyCommand, args), ok: message === undefined, ...failure, source: options.source ?? 'button' })
    return {
      key: row.key,
      result: outcome instanceof Error ? { ok: false, error: { kind: 'failed', error: outcome, message: message! } } : { ok: true, result: outcome },
    }
  })
}

/** "Kick out client: 3 selected rows" — the heading sentence of a bulk confirmation. */
export function bulkConfirmText(command: AnyCommand, count: number, t: Translate): string {
  return t('confirm.bulk', { title: t(command.title), count })
}
