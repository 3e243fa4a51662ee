// Runs the emqx-console CLI as an operator does: a child process of this Node, script on stdin.
import { spawn } from 'node:child_process'

export const CLI_BIN = new URL('../../bin/emqx-console.mjs', import.meta.url).pathname

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
  /** stdout read as one JSON object per line (for --json). */
  json: Array<Record<string, any>> // any: tests read whatever fields the CLI's JSON lines carry
}

export function cli(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    // Only what the CLI reads from the environment is passed on, so a developer's EMQX_* cannot leak in.
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', ...options.env }
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      const json = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      resolve({ code, stdout, stderr, json })
    })
    child.stdin.end(options.stdin ?? '')
  })
}
