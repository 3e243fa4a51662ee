// What a prompt line and a pasted block do, against the real server through the app's own command
// runner (the same path as the palette): problems pointed at, tables printed, a script's plan
// printed and run only after its one confirmation, dangerous steps not asked again.
import { describe, expect, it } from 'vitest'
import { t as english } from '../cli/output.ts'
import { executeCommand, type RunnerDeps } from '../src/app/commands/runner.ts'
import { runPromptLine, runPromptScript, type PromptRunnerDeps } from '../src/app/terminal/promptRunner.ts'
import { createTerminalLog } from '../src/state/terminalLog.ts'
import { consoleSuite } from './support/commands.ts'

/** English as i18next gives it: `_one` / `_other` forms chosen by `count`. */
function t(key: string, values?: Record<string, string | number>): string {
  if (values?.count !== undefined) {
    const plural = `${key}_${values.count === 1 ? 'one' : 'other'}`
    const text = english(plural, values)
    if (text !== plural) return text
  }
  return english(key, values)
}

describe('prompt lines against the server', () => {
  const suite = consoleSuite()

  function deps(answer: boolean) {
    let printed = ''
    const log = createTerminalLog(100)
    const asked: string[][] = []
    const confirms: string[] = []
    const runner: RunnerDeps = {
      ctx: { api: suite.api },
      confirm: async (request) => {
        confirms.push(request.text)
        return answer
      },
      notify: () => undefined,
      log,
      t,
    }
    const d: PromptRunnerDeps = {
      run: (command, raw, options) => executeCommand(command, raw, runner, options),
      confirmScript: async (steps) => {
        asked.push(steps.map((s) => s.command.id))
        return answer
      },
      ctx: { api: suite.api },
      print: (text) => void (printed += text),
      columns: () => 100,
      t,
      signal: new AbortController().signal,
    }
    return { d, screen: () => printed.replace(/\x1b\[[0-9;]*m/g, ''), log, asked, confirms }
  }

  it('points at a bad argument under the line and runs nothing', async () => {
    const { d, screen, log } = deps(true)
    await runPromptLine('clients.list conn_state=sleeping', d)
    expect(screen()).toBe(`${' '.repeat(26)}^ Must be one of: connected, idle, disconnected\r\n`)
    expect(log.entries()).toEqual([])
    await runPromptLine('clinets.list', d)
    expect(screen()).toContain('^ Unknown command: clinets.list (did you mean clients.list?)')
  })

  it('prints a read command table under its terminal line', async () => {
    await suite.ts.connect({ clientId: 'prompt-seen' })
    const { d, screen, log } = deps(true)
    await runPromptLine('clients.list', d)
    expect(log.last()).toMatchObject({ source: 'clients.list', status: 'ok', message: 'rows: 1' })
    expect(screen()).toMatch(/^clientid +username +address.*\r\nprompt-seen .*\r\nrows: 1 · not shown: connected_at, node \(widen the pane\)\r\n$/)
  })

  it('a dangerous line asks the runner\'s confirmation; declined, nothing happens', async () => {
    const client = await suite.ts.connect({ clientId: 'kept' })
    const { d, log, confirms } = deps(false)
    await runPromptLine('client.kick kept', d)
    expect(confirms).toEqual(['Disconnect client kept and clear its session'])
    expect(log.last()).toMatchObject({ source: 'client.kick', status: 'cancelled' })
    expect(client.connected).toBe(true)
  })

  it('a pasted script prints its plan, asks once, and runs every step without asking again', async () => {
    const one = await suite.ts.connect({ clientId: 'paste-1' })
    const two = await suite.ts.connect({ clientId: 'paste-2' })
    const { d, screen, asked, confirms, log } = deps(true)
    await runPromptScript('client.kick paste-1\n# a comment\nclient.kick paste-2\nclients.list', d)
    expect(asked).toEqual([['client.kick', 'client.kick', 'clients.list']])
    expect(confirms).toEqual([])
    expect(screen()).toContain('Plan: 3 steps\r\n  1  client.kick paste-1  dangerous Disconnect client paste-1 and clear its session')
    expect(screen()).toContain('rows: 0\r\nAll 3 steps succeeded\r\n')
    expect(one.connected || two.connected).toBe(false)
    expect(log.entries().map((e) => `${e.source} ${e.status}`)).toEqual(['client.kick ok', 'client.kick ok', 'clients.list ok'])
  })

  it('a declined script runs nothing; a script with a problem says where and runs nothing', async () => {
    const client = await suite.ts.connect({ clientId: 'paste-kept' })
    const declined = deps(false)
    await runPromptScript('client.kick paste-kept\nclients.list', declined.d)
    expect(declined.screen()).toMatch(/cancelled\r\n$/)
    expect(declined.log.entries()).toEqual([])
    const broken = deps(true)
    await runPromptScript('client.kick paste-kept\nclients.list qos=1', broken.d)
    expect(broken.asked).toEqual([])
    expect(broken.screen()).toContain('Line 2, column 14: Unknown argument qos for clients.list')
    expect(client.connected).toBe(true)
  })
})
