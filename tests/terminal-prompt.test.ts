// The terminal pane's prompt as keys in and terminal text out: editing, history, reverse-i-search,
// Ctrl+C, Ctrl+L, pasted scripts; and Tab completion against the real server's live completers.
import { describe, expect, it } from 'vitest'
import { completeLine } from '../commands/completeLine.ts'
import { decodeKeys } from '../src/app/terminal/keys.ts'
import { PromptSession, type PromptHost } from '../src/app/terminal/prompt.ts'
import { consoleSuite } from './support/commands.ts'

/** A host recording what the prompt asks for; `screen` is everything written, escapes stripped. */
function host(history: string[] = [], complete: PromptHost['complete'] = async (text, cursor) => ({ text, cursor, candidates: [] })) {
  const ran: string[] = []
  const scripts: string[] = []
  let written = ''
  let interrupted = 0
  let cleared = 0
  let release: (() => void) | undefined
  const h: PromptHost = {
    write: (text) => void (written += text),
    columns: () => 80,
    run: (line) => {
      ran.push(line)
      return new Promise<void>((resolve) => (release = resolve))
    },
    runScript: async (text) => void scripts.push(text),
    complete,
    history: () => history,
    interrupt: () => void interrupted++,
    clear: () => void cleared++,
    labels: { search: '(reverse-i-search)', searchFailed: '(failed reverse-i-search)' },
  }
  return {
    h,
    ran,
    scripts,
    screen: () => written.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ''),
    interrupted: () => interrupted,
    cleared: () => cleared,
    finish: () => release?.(),
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('prompt keys', () => {
  it('decodes arrows, controls, typed text and bracketed or bare pastes', () => {
    expect(decodeKeys('ab\x1b[Dc\r')).toEqual([{ kind: 'text', text: 'ab' }, { kind: 'left' }, { kind: 'text', text: 'c' }, { kind: 'enter' }])
    expect(decodeKeys('\x03\x0c\x12\t\x7f').map((k) => k.kind)).toEqual(['interrupt', 'clear', 'search', 'tab', 'backspace'])
    expect(decodeKeys('\x1b[200~client.kick a\nclient.kick b\n\x1b[201~')).toEqual([{ kind: 'paste', text: 'client.kick a\nclient.kick b' }])
    expect(decodeKeys('client.kick a\r\nclient.kick b')).toEqual([{ kind: 'paste', text: 'client.kick a\nclient.kick b' }])
    // One pasted line is typed, not run; its control characters are dropped.
    expect(decodeKeys('\x1b[200~alarms.list\x1b[2J\n\x1b[201~')).toEqual([{ kind: 'text', text: 'alarms.list[2J' }])
    expect(decodeKeys('\x1b[15~x')).toEqual([{ kind: 'text', text: 'x' }])
  })
})

describe('prompt session', () => {
  it('edits the line and runs it on Enter, busy until it is done', async () => {
    const t = host()
    const p = new PromptSession(t.h)
    p.start()
    p.input('client.kic')
    p.input('\x1b[D\x1b[D\x7f') // delete the `k` before the cursor's `ic`
    expect(p.line).toBe('client.ic')
    p.input('\x01\x1b[3~') // Home, Delete
    expect(p.line).toBe('lient.ic')
    p.input('\x05 x\x17') // End, type, Ctrl+W removes the word
    expect(p.line).toBe('lient.ic ')
    p.input('\x15alarms.list\r')
    expect(t.ran).toEqual(['alarms.list'])
    expect(p.busy).toBe(true)
    p.input('ignored')
    p.input('\x03')
    expect(t.interrupted()).toBe(1)
    t.finish()
    await settle()
    expect(p.busy).toBe(false)
    expect(p.line).toBe('')
    expect(t.screen()).toContain('› alarms.list\r\n^C\r\n')
  })

  it('walks the history with Up and Down and gives the draft back', () => {
    const t = host(['clients.list', 'client.kick sensor-1'])
    const p = new PromptSession(t.h)
    p.start()
    p.input('draft')
    p.input('\x1b[A')
    expect(p.line).toBe('client.kick sensor-1')
    p.input('\x1b[A\x1b[A')
    expect(p.line).toBe('clients.list')
    p.input('\x1b[B\x1b[B')
    expect(p.line).toBe('draft')
  })

  it('recalls lines that never ran (a typo) too', async () => {
    const t = host(['clients.list'])
    const p = new PromptSession(t.h)
    p.input('clinets.list\r')
    t.finish()
    await settle()
    p.input('\x1b[A')
    expect(p.line).toBe('clinets.list')
  })

  it('searches the history backwards with Ctrl+R, again for older matches, Enter runs', async () => {
    const t = host(['banned.list', 'client.kick a', 'alarms.list', 'client.kick b'])
    const p = new PromptSession(t.h)
    p.start()
    p.input('\x12kick')
    expect(t.screen()).toContain("(reverse-i-search)`kick': client.kick b")
    p.input('\x12')
    expect(t.screen()).toContain("(reverse-i-search)`kick': client.kick a")
    p.input('zz')
    expect(t.screen()).toContain("(failed reverse-i-search)`kickzz'")
    p.input('\x7f\x7f\r')
    expect(t.ran).toEqual(['client.kick a'])
  })

  it('Escape leaves the search with the line as it was; an editing key takes the match', () => {
    const t = host(['alarms.list'])
    const p = new PromptSession(t.h)
    p.input('x\x12ala\x1b')
    expect(p.line).toBe('x')
    p.input('\x12ala\x1b[C')
    expect(p.line).toBe('alarms.list')
  })

  it('Ctrl+C abandons the line, Ctrl+L clears the screen', () => {
    const t = host()
    const p = new PromptSession(t.h)
    p.start()
    p.input('half typed\x03')
    expect(p.line).toBe('')
    expect(t.screen()).toContain('› half typed^C\r\n')
    p.input('\x0c')
    expect(t.cleared()).toBe(1)
  })

  it('a pasted block becomes a script', async () => {
    const t = host()
    const p = new PromptSession(t.h)
    p.input('\x1b[200~client.kick a\nclient.kick b\n\x1b[201~')
    await settle()
    expect(t.scripts).toEqual(['client.kick a\nclient.kick b'])
    expect(t.ran).toEqual([])
  })

  it('Tab fills a unique completion and lists several with their common prefix filled', async () => {
    const t = host([], async (text) =>
      text === 'x'
        ? { text: 'xyz ', cursor: 4, candidates: [] }
        : { text: 'client.', cursor: 7, candidates: ['client.kick', 'client.subscribe'] },
    )
    const p = new PromptSession(t.h)
    p.start()
    p.input('x\t')
    await settle()
    expect(p.line).toBe('xyz ')
    p.input('\x15c\t')
    await settle()
    expect(p.line).toBe('client.')
    expect(t.screen()).toMatch(/client\.kick +client\.subscribe\r\n/)
  })

  it('output printed while typing comes above the line, which is drawn again', () => {
    const t = host()
    const p = new PromptSession(t.h)
    p.start()
    p.input('abc')
    p.print('[12:00:00] something happened\r\n')
    expect(t.screen().endsWith('[12:00:00] something happened\r\n› abc')).toBe(true)
  })
})

describe('prompt completion against the server', () => {
  const suite = consoleSuite()

  it('completes command ids, argument names, enum values and live client ids', async () => {
    const signal = new AbortController().signal
    expect(await completeLine('client.ki', 9, suite.api, signal)).toMatchObject({ text: 'client.kick ', candidates: [] })
    const many = await completeLine('client.', 7, suite.api, signal)
    expect(many.candidates).toContain('client.kick')
    expect(many.text).toBe('client.')

    await suite.ts.connect({ clientId: 'sensor-1' })
    await suite.ts.connect({ clientId: 'pump-7' })
    expect(await completeLine('client.kick sen', 15, suite.api, signal)).toMatchObject({ text: 'client.kick sensor-1 ', candidates: [] })
    expect(await completeLine('client.kick clientid=pu', 23, suite.api, signal)).toMatchObject({ text: 'client.kick clientid=pump-7 ' })
    const enumValue = await completeLine('client.subscribe sensor-1 t/1 qos=', 34, suite.api, signal)
    expect(enumValue.candidates).toEqual(['0', '1', '2'])
    const names = await completeLine('client.subscribe sensor-1 t/1 n', 31, suite.api, signal)
    expect(names.text).toBe('client.subscribe sensor-1 t/1 nl=')
  })
})
