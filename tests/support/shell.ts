// `emqx-console shell` as an operator drives it: the CLI a child process, readline's line editing
// forced on its piped stdin (--terminal), keys written as a terminal sends them (Tab, Enter,
// Ctrl+C, Ctrl+D), what it prints read back with the escape sequences taken out.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { CLI_BIN } from './cli.ts'

export const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')

export interface Shell {
  child: ChildProcessWithoutNullStreams
  /** Everything printed so far, escape sequences taken out. */
  text(): string
  /** What went to stdout alone, as printed (a --json shell's objects). */
  stdout(): string
  send(keys: string): void
  /** Waits until what is printed after `from` matches. */
  waitFor(pattern: RegExp, from?: number): Promise<string>
  exited: Promise<number | null>
}

/**
 * A shell logged in as admin on the server at `url`, with `home` as its HOME (where its history is
 * kept); `terminal: false` drives it as a program would, through a plain pipe.
 */
export function startShell(url: string, home: string, extra: string[] = [], { terminal = true } = {}): Shell {
  const env = { PATH: process.env.PATH ?? '', HOME: home }
  const args = [CLI_BIN, 'shell', ...(terminal ? ['--terminal'] : []), '--url', url, '--username', 'admin', '--password', 'public', ...extra]
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] })
  let output = ''
  let stdout = ''
  child.stdout.on('data', (chunk) => {
    output += chunk
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  const text = () => stripAnsi(output)
  return {
    child,
    text,
    stdout: () => stdout,
    send: (keys) => void child.stdin.write(keys),
    exited,
    waitFor: async (pattern, from = 0) => {
      const deadline = Date.now() + 10_000
      while (!pattern.test(text().slice(from))) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in:\n${text().slice(from)}`)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      return text().slice(from)
    },
  }
}
