// `emqx-console shell`: an interactive prompt over one login. Each line is planned and run as a
// script line (the same parser and validation, the problem pointed at under the line); a
// dangerous command asks y/N; a read command's table is printed as `run` prints it. Tab completes
// through the terminal pane's completeLine (the palette's live completers); the history is kept in
// ~/.emqx-console_history. Ctrl+C cancels the line or stops the command under way; Ctrl+D exits.
// With --json there is no prompt and every answer is one JSON object a line, as `run --json`
// prints them, so a program can drive the shell through a pipe.
import { readFileSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { createInterface, type Interface } from 'node:readline'
import type { Api } from '../src/api/index.ts'
import { completeLine } from '../commands/completeLine.ts'
import { escapeControl } from '../commands/format/escapeControl.ts'
import { executePlan, type StepResult } from '../commands/script/execute.ts'
import { planScript, type PlanStep, type ScriptError } from '../commands/script/plan.ts'
import { loginTarget, openApi, PIPE_COLUMNS, terminalOutput, type LoginFlags, type Printer } from './session.ts'
import * as out from './output.ts'

export const PROMPT = 'emqx› '
export const HISTORY_FILE = '.emqx-console_history'
const HISTORY_SIZE = 1000

export interface ShellIo extends Printer {
  input: NodeJS.ReadableStream
  output: NodeJS.WritableStream
  env: Record<string, string | undefined>
  signal?: AbortSignal
}

export type ShellFlags = LoginFlags & {
  /** readline's line editing (Tab, history, Ctrl+C as a key) even when stdin is no TTY: for tests and expect scripts. */
  terminal?: boolean
  /** One JSON object a line: each step, each streamed line or frame, each refused line, each question. */
  json?: boolean
  /** Dangerous commands run without asking. */
  yes?: boolean
}

const EXIT_OK = 0
const EXIT_USAGE = 2

function historyPath(env: Record<string, string | undefined>): string {
  return join(env.HOME ?? homedir(), HISTORY_FILE)
}

/** The saved history, newest first as readline keeps it; none when the file is missing. */
function loadHistory(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).reverse().slice(0, HISTORY_SIZE)
  } catch {
    return []
  }
}

function saveHistory(file: string, history: readonly string[]): void {
  try {
    const lines = [...new Set([...history].reverse().map((line) => line.trim()))]
    writeFileSync(file, lines.map((line) => `${line}\n`).join(''), { mode: 0o600 })
  } catch {
    // A history that cannot be written (a read-only home) is no reason to stop the shell.
  }
}

/** A problem of the line, under it: a caret at its column (after the prompt) and what is wrong. */
export function problemLine(error: ScriptError): string {
  const message = out.text(error)
  const arg = error.arg && !message.includes(error.arg) ? ` (argument ${error.arg})` : ''
  return `${' '.repeat(PROMPT.length + error.column - 1)}^ ${escapeControl(message)}${arg}`
}

/** What a run line printed: a read command's table, a failure, or the answer in short. */
function outcomeLines(result: StepResult, columns: number): string[] {
  if (result.status === 'failed' && result.error) return [`failed: ${out.failureText(result.error)}`]
  if (result.status === 'cancelled') return ['cancelled']
  if (result.status !== 'ok') return []
  const table = out.tableLines(result, columns)
  if (table.length) return table
  // The sentence the pane shows (`Stopped following t1; 14 lines`) where the command has one.
  const said = result.step.command.resultText?.(result.result)
  if (said) return [escapeControl(out.text(said))]
  return result.result === undefined ? ['ok'] : [out.compact(result.result)]
}

/** Tab: readline's async completer over completeLine; one match is typed in, several are listed. */
function completer(api: Api, rl: () => Interface | undefined) {
  return (line: string, callback: (error: Error | null, result: [string[], string]) => void) => {
    completeLine(line, line.length, api, AbortSignal.timeout(5000)).then(
      ({ text, candidates }) => {
        if (candidates.length > 1) {
          // readline lists them and fills their common prefix past the word as typed.
          const word = line.slice(line.lastIndexOf(' ') + 1)
          const typed = word.includes('=') && line.trimStart().includes(' ') ? word.slice(word.indexOf('=') + 1) : word
          return callback(null, [candidates, typed])
        }
        if (text === line) return callback(null, [[], line])
        if (text.startsWith(line)) return callback(null, [[text], line])
        // A quoted word came back unquoted: the line is replaced, not appended to.
        callback(null, [[], line])
        const editor = rl()
        editor?.write(null, { ctrl: true, name: 'u' })
        editor?.write(text)
      },
      () => callback(null, [[], line]),
    )
  }
}

export async function runShell(flags: ShellFlags, io: ShellIo): Promise<number> {
  const target = loginTarget(flags, io.env)
  if ('error' in target) {
    io.stderr(`emqx-console: ${target.error}`)
    return EXIT_USAGE
  }
  const { url } = target
  const api = await openApi(url, target.choice, io)
  if (typeof api === 'number') return api

  const json = Boolean(flags.json)
  const emit = (value: Record<string, unknown>) => io.stdout(JSON.stringify(value))
  const prompt = json ? '' : PROMPT
  const file = historyPath(io.env)
  const terminal = flags.terminal ?? Boolean((io.input as { isTTY?: boolean }).isTTY)
  let rl: Interface | undefined
  rl = createInterface({
    input: io.input,
    output: io.output,
    terminal,
    prompt,
    history: loadHistory(file),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    completer: completer(api, () => rl),
  })
  // readline hands its own list (newest first); an answer to y/N is taken out of it again.
  let history: string[] = []
  rl.on('history', (lines: string[]) => {
    history = lines
    saveHistory(file, history)
  })

  // Lines typed while a command runs wait their turn, as a shell's type-ahead does.
  const typed: string[] = []
  let waiting: ((line: string | undefined) => void) | undefined
  let closed = false
  const nextLine = () => new Promise<string | undefined>((resolve) => (typed.length || closed ? resolve(typed.shift()) : (waiting = resolve)))
  const hand = (line: string | undefined) => {
    const resolve = waiting
    waiting = undefined
    resolve?.(line)
  }
  rl.on('line', (line) => (waiting ? hand(line) : typed.push(line)))

  // Ctrl+C: declines a question, stops the command under way, or drops the line being typed.
  let running: AbortController | undefined
  let asking = false
  rl.on('SIGINT', () => {
    if (asking) return hand('')
    if (running) return running.abort()
    io.output.write('^C\n')
    rl.write(null, { ctrl: true, name: 'e' })
    rl.write(null, { ctrl: true, name: 'u' })
  })
  // Ctrl+D (or the end of piped input) exits, stopping a command that streams.
  // Piped lines (no terminal) all run, though the input ended while the first did.
  rl.on('close', () => {
    closed = true
    if (terminal) running?.abort()
    hand(undefined)
  })
  // A SIGINT to the process (Ctrl+C once the line editor closed, or kill -INT) stops the command too.
  io.signal?.addEventListener('abort', () => running?.abort())

  const ask = async (step: PlanStep): Promise<boolean> => {
    if (flags.yes) return true
    // The next line typed answers, in either mode.
    if (json) emit({ type: 'confirm', line: step.text, command: step.command.id, describe: out.text(step.describe) })
    else {
      rl.setPrompt(`${escapeControl(out.text(step.describe))}: dangerous, run it? [y/N] `)
      rl.prompt()
    }
    asking = true
    const answer = await nextLine()
    asking = false
    if (answer && history[0] === answer) {
      history.shift()
      saveHistory(file, history)
    }
    rl.setPrompt(prompt)
    return /^y(es)?$/i.test((answer ?? '').trim())
  }

  rl.prompt()
  for (let line = await nextLine(); line !== undefined; line = await nextLine()) {
    await runLine(line)
    if (!closed) rl.prompt()
  }
  if (!json) io.output.write('\n')
  // A piped stdin that is still open would keep the process alive after Ctrl+D.
  const input = io.input as NodeJS.ReadableStream & { unref?: () => void }
  input.unref?.()
  return EXIT_OK

  async function runLine(line: string): Promise<void> {
    const plan = planScript(line, { target: 'cli' })
    if (!plan.ok) {
      for (const error of plan.errors) json ? emit(out.errorJson(error)) : io.stdout(problemLine(error))
      return
    }
    if (plan.steps.length === 0) return
    running = new AbortController()
    const terminal = terminalOutput(io, url, running.signal, json ? emit : undefined)
    await executePlan(plan.steps, { api: api as Api, live: terminal.live }, {
      confirmDanger: ask,
      signal: running.signal,
      onStep: (result) => {
        if (json) return emit(out.stepJson(result))
        // A terminal that reports no width (0) gets a pipe's.
        for (const text of outcomeLines(result, io.columns || PIPE_COLUMNS)) terminal.line(text)
      },
    })
    running = undefined
  }
}
