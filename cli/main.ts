// emqx-console: runbook scripts from a shell, with the registry, parser, plan and API client the
// browser uses. Exit status: 0 success, 1 a step failed (or the server could not be reached),
// 2 a usage or plan error (nothing ran), 3 the login was refused (nothing ran).
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { commandsByGroup, listCommands } from '../commands/registry.ts'
import { planScript } from '../commands/script/plan.ts'
import { executePlan } from '../commands/script/execute.ts'
import { EXIT_FAILED, loginTarget, openApi, PIPE_COLUMNS, terminalOutput, type LoginFlags } from './session.ts'
import * as out from './output.ts'
import { runShell } from './shell.ts'
import { quoteArg } from '../commands/args.ts'

export interface Io {
  stdout(line: string): void
  stderr(line: string): void
  readStdin(): Promise<string>
  env: Record<string, string | undefined>
  /** Aborted when the operator interrupts (Ctrl+C): the step under way finishes, the rest do not run. */
  signal?: AbortSignal
  /** The width of the terminal tables are fitted to (stdout's columns on a TTY). */
  columns?: number
  /** The shell's line editor reads and writes these (process.stdin and process.stdout). */
  input?: NodeJS.ReadableStream
  output?: NodeJS.WritableStream
}

export const USAGE = `Usage:
  emqx-console run <file|-> [options]   Run a runbook script (- reads it from stdin)
  emqx-console shell [options]          An interactive prompt: each line runs as a script line,
                                        Tab completes, dangerous commands ask y/N (Ctrl+D exits)
  emqx-console commands [--json]        List every command with its arguments
  emqx-console trace follow <name>      Print a log trace's lines as they are written, until
                                        the trace stops or Ctrl+C (options as for run;
                                        --node <node> reads that node's file)

Options for run (shell takes the login options, --yes and --json):
  --url <url>                 Console or EMQX API URL, with or without /api/v5 (env EMQX_URL)
  --username <name>           Dashboard user; logs in for a token (env EMQX_USERNAME)
  --password <password>       Its password (env EMQX_PASSWORD)
  --api-key <key>             EMQX API key, sent as HTTP Basic (env EMQX_API_KEY)
  --api-secret <secret>       Its secret (env EMQX_API_SECRET)
  --dry-run                   Validate and look up arguments; change nothing
  --yes                       Confirm dangerous steps (kick, delete, clear, ...) up front
  --continue-on-error         Go on after a failed step
  --json                      One JSON object per line: the plan, each step, a summary
                              (shell: no prompt; each step, streamed line, refused line and
                              y/N question, answered by the next line, as one object)
  --terminal                  shell: line editing (Tab, history, Ctrl+C) when stdin is no TTY

Exit status:
  0  every step succeeded (or was checked, with --dry-run)
  1  a step failed, or the server could not be reached
  2  usage or plan error, or dangerous steps without --yes (nothing ran)
  3  the login was refused: wrong username or password, or locked (nothing ran)`

const EXIT_OK = 0
const EXIT_USAGE = 2
const SKIPPED_SHOWN = 5

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export const processIo: Io = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  readStdin,
  env: process.env,
  input: process.stdin,
  output: process.stdout,
  get columns() {
    return process.stdout.columns
  },
}

function listCommandsCommand(json: boolean, io: Io): number {
  if (json) {
    io.stdout(JSON.stringify(listCommands().map(out.commandJson), null, 2))
    return EXIT_OK
  }
  for (const { group, commands } of commandsByGroup()) {
    io.stdout(`${out.t(group)}:`)
    for (const command of commands) for (const line of out.commandLines(command)) io.stdout(`  ${line}`)
    io.stdout('')
  }
  return EXIT_OK
}

type RunFlags = LoginFlags & {
  'dry-run'?: boolean
  yes?: boolean
  'continue-on-error'?: boolean
  json?: boolean
}

async function runCommand(file: string, flags: RunFlags, io: Io): Promise<number> {
  let source: string
  try {
    source = file === '-' ? await io.readStdin() : readFileSync(file, 'utf8')
  } catch (error) {
    io.stderr(`emqx-console: cannot read ${file}: ${(error as Error).message}`)
    if (flags.json) io.stdout(JSON.stringify({ type: 'error', message: `cannot read ${file}: ${(error as Error).message}` }))
    return EXIT_USAGE
  }
  return runSource(source, file === '-' ? '<stdin>' : file, flags, io)
}

/**
 * Runs a script's text. `bare`: a one-command verb (`trace follow NAME`) prints only what its
 * command streams, and its failure on stderr, without the plan, step and summary lines.
 */
async function runSource(source: string, name: string, flags: RunFlags, io: Io, bare = false): Promise<number> {
  const json = Boolean(flags.json)
  const dryRun = Boolean(flags['dry-run'])
  const emit = (value: Record<string, unknown>) => io.stdout(JSON.stringify(value))
  const usageError = (message: string) => {
    if (json) emit({ type: 'error', message })
    io.stderr(`emqx-console: ${message}`)
    return EXIT_USAGE
  }

  // The whole script is checked before anything else, so a broken runbook never half-runs.
  const plan = planScript(source, { target: 'cli' })
  if (!plan.ok) {
    for (const error of plan.errors) {
      if (json) emit(out.errorJson(error))
      io.stderr(out.errorLine(name, error))
    }
    io.stderr(`emqx-console: ${plan.errors.length} error${plan.errors.length === 1 ? '' : 's'} in ${name}; nothing ran`)
    return EXIT_USAGE
  }
  const { steps } = plan

  const target = loginTarget(flags, io.env)
  if ('error' in target) return usageError(target.error)
  const { url, choice } = target

  if (json && !bare) emit(out.planJson(steps))
  else if (!bare) for (const line of out.planLines(steps, name)) io.stdout(line)

  const dangerous = steps.filter((step) => step.confirm)
  if (dangerous.length && !dryRun && !flags.yes) {
    const lines = dangerous.map((step) => `line ${step.line}: ${step.command.id}`).join(', ')
    return usageError(`${dangerous.length} dangerous step${dangerous.length === 1 ? '' : 's'} (${lines}); run again with --yes to confirm. Nothing ran.`)
  }

  const width = out.stepWidth(steps)
  let skipped = 0
  const api = await openApi(url, choice, io, json ? emit : undefined)
  if (typeof api === 'number') return api
  const { live, line: stdout } = terminalOutput(io, url, io.signal, json ? emit : undefined)
  const run = await executePlan(steps, { api, live }, {
    dryRun,
    continueOnError: Boolean(flags['continue-on-error']),
    confirmDanger: Boolean(flags.yes),
    onStep: (result) => {
      if (bare) return result.error && io.stderr(`emqx-console: ${out.failureText(result.error)}`)
      if (json) return emit(out.stepJson(result))
      // A long script stopped early lists the first steps it did not run, then how many more.
      if (result.status === 'skipped' && ++skipped > SKIPPED_SHOWN) {
        if (result.index === steps.length - 1) io.stdout(`skipped   … and ${skipped - SKIPPED_SHOWN} more`)
        return
      }
      stdout(out.stepLine(result, width))
      for (const line of out.tableLines(result, io.columns ?? PIPE_COLUMNS)) stdout(line)
    },
    ...(io.signal ? { signal: io.signal } : {}),
  })
  if (bare) return run.ok ? EXIT_OK : EXIT_FAILED
  if (io.signal?.aborted) io.stderr('emqx-console: interrupted; the steps after the one under way did not run')
  if (json) emit(out.summaryJson(run, dryRun))
  else io.stdout(out.summaryLine(run, dryRun))
  return run.ok ? EXIT_OK : EXIT_FAILED
}

/** Runs the CLI with these arguments (without `node` and the script) and returns the exit status. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        url: { type: 'string' },
        username: { type: 'string', short: 'u' },
        password: { type: 'string', short: 'p' },
        'api-key': { type: 'string' },
        'api-secret': { type: 'string' },
        'dry-run': { type: 'boolean' },
        yes: { type: 'boolean', short: 'y' },
        'continue-on-error': { type: 'boolean' },
        json: { type: 'boolean' },
        terminal: { type: 'boolean' },
        node: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    io.stderr(`emqx-console: ${(error as Error).message}`)
    io.stderr(USAGE)
    return EXIT_USAGE
  }
  const { values, positionals } = parsed
  const [verb, ...rest] = positionals
  if (values.help) {
    io.stdout(USAGE)
    return EXIT_OK
  }
  if (verb === 'commands' && rest.length === 0) return listCommandsCommand(Boolean(values.json), io)
  if (verb === 'run' && rest.length === 1) return runCommand(rest[0], values, io)
  if (verb === 'shell' && rest.length === 0) {
    const { input = process.stdin, output = process.stdout } = io
    return runShell(values, { ...io, input, output, stdout: io.stdout, stderr: io.stderr, columns: io.columns })
  }
  if (verb === 'trace' && rest[0] === 'follow' && rest.length === 2)
    return runSource(`trace.follow name=${quoteArg(rest[1])}${values.node ? ` node=${quoteArg(values.node)}` : ''}`, 'trace follow', values, io, true)
  io.stderr(verb === 'run' ? 'emqx-console: run takes one file (or - for stdin)' : USAGE)
  return EXIT_USAGE
}
