// What `run` and `shell` share: the server and credentials from the options or the environment,
// the login, and the terminal's LiveOutput (a streaming command's lines, a frame redrawn in place).
import type { Api } from '../src/api/index.ts'
import type { LiveOutput } from '../commands/define.ts'
import { ApiError } from '../contract/api-error.ts'
import { stepError } from '../commands/script/execute.ts'
import { lineWriterOutput } from '../commands/liveOutput.ts'
import { chooseCredentials, connect, normalizeUrl, type CredentialChoice } from './connect.ts'
import * as out from './output.ts'

export type LoginFlags = {
  url?: string
  username?: string
  password?: string
  'api-key'?: string
  'api-secret'?: string
}

export interface Printer {
  stdout(line: string): void
  stderr(line: string): void
  /** The width of the terminal (stdout's columns on a TTY); undefined for a pipe. */
  columns?: number
}

/** Tables are fitted to this many columns when stdout is no terminal (a pipe, a file). */
export const PIPE_COLUMNS = 160

export const EXIT_FAILED = 1
export const EXIT_LOGIN_REFUSED = 3

/** Where to log in and how, or what is missing (an English sentence for a usage error). */
export function loginTarget(flags: LoginFlags, env: Record<string, string | undefined>): { url: string; choice: CredentialChoice } | { error: string } {
  const url = flags.url ?? env.EMQX_URL
  if (!url) return { error: '--url (or EMQX_URL) is required' }
  try {
    normalizeUrl(url)
  } catch {
    return { error: `not a URL: ${url}` }
  }
  const choice = chooseCredentials({
    username: flags.username ?? env.EMQX_USERNAME,
    password: flags.password ?? env.EMQX_PASSWORD,
    apiKey: flags['api-key'] ?? env.EMQX_API_KEY,
    apiSecret: flags['api-secret'] ?? env.EMQX_API_SECRET,
  })
  return 'error' in choice ? choice : { url, choice }
}

/** Logs in; on failure says why on stderr (and as JSON with `emit`) and answers the exit status. */
export async function openApi(url: string, choice: CredentialChoice, io: Printer, emit?: (value: Record<string, unknown>) => void): Promise<Api | number> {
  try {
    return await connect(url, choice)
  } catch (error) {
    const { code, message } = stepError(error)
    emit?.({ type: 'error', code, message })
    const answered = error instanceof ApiError && error.status !== 0
    const refused = answered && (error.status === 401 || error.status === 403)
    const what = answered ? `login to ${normalizeUrl(url)} failed` : `cannot reach ${normalizeUrl(url)}`
    io.stderr(`emqx-console: ${what}: ${code === message ? code : `${code}: ${message}`}`)
    return refused ? EXIT_LOGIN_REFUSED : EXIT_FAILED
  }
}

export interface TerminalOutput {
  live: LiveOutput
  /** Prints a line of the caller's own (a step's outcome), so the next frame starts below it. */
  line(text: string): void
}

/**
 * A streaming step (rule.tap, sub) prints its lines as they arrive until `signal` aborts (Ctrl+C).
 * A frame (watch's table) is redrawn in place on a terminal, follows as a new block in a pipe,
 * and is its data with `emit` (--json).
 */
export function terminalOutput(io: Printer, url: string, signal: AbortSignal | undefined, emit?: (value: Record<string, unknown>) => void): TerminalOutput {
  let frameRows = 0
  let linesSinceFrame = 0
  const line = (text: string) => {
    linesSinceFrame++
    io.stdout(text)
  }
  const live = lineWriterOutput({
    write: (source, text) => (emit ? emit({ type: 'live', source, line: text }) : line(text)),
    frame: (source, frame) => {
      if (emit) return emit({ type: 'frame', source, data: frame.data })
      const tty = io.columns !== undefined
      const lines = frame.render({ width: io.columns || PIPE_COLUMNS, colour: tty, translate: out.text })
      if (tty && frameRows > 0 && linesSinceFrame === 0) io.stdout(`\x1b[${frameRows}A\x1b[J${lines[0] ?? ''}`)
      else {
        if (!tty && frameRows > 0) io.stdout('')
        io.stdout(lines[0] ?? '')
      }
      for (const rest of lines.slice(1)) io.stdout(rest)
      frameRows = lines.length
      linesSinceFrame = 0
    },
    translate: out.text,
    brokerHost: new URL(normalizeUrl(url)).hostname,
    ...(signal ? { signal } : {}),
  })
  return { live, line }
}
