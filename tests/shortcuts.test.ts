// Keyboard shortcuts declared on commands: parsing, sequences (`g c`), the `?` key, and the sheet
// that lists them, generated from the registry.
import { describe, expect, it } from 'vitest'
import { listCommands } from '../commands/registry.ts'
import { matchStrokes, parseShortcut, shortcutLabels, strokeOf, type KeyStroke } from '../src/app/commands/shortcuts.ts'

const key = (k: string, extra: Partial<KeyboardEvent> = {}) =>
  strokeOf({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...extra } as KeyboardEvent)

const bindings = listCommands()
  .filter((c) => c.shortcut)
  .map((c) => ({ strokes: parseShortcut(c.shortcut!), value: c.id }))

/** Feeds keys as the listener does: keeps the typed strokes while a sequence is pending. */
function press(...keys: KeyStroke[]): string | undefined {
  let typed: KeyStroke[] = []
  for (const stroke of keys) {
    const { match, pending } = matchStrokes([...typed, stroke], bindings)
    if (match) return match
    typed = pending ? [...typed, stroke] : []
  }
  return undefined
}

describe('shortcut sequences', () => {
  it('reads sequences and modified keys', () => {
    expect(parseShortcut('g c')).toEqual([
      { key: 'g', mod: false, shift: false, alt: false },
      { key: 'c', mod: false, shift: false, alt: false },
    ])
    expect(parseShortcut('mod+k')).toEqual([{ key: 'k', mod: true, shift: false, alt: false }])
    expect(shortcutLabels('g c')).toEqual([['G'], ['C']])
  })

  it('navigates with g then a letter, as declared on the go commands', () => {
    expect(press(key('g'), key('c'))).toBe('go.clients')
    expect(press(key('g'), key('s'))).toBe('go.subscriptions')
    expect(press(key('g'), key('r'))).toBe('go.rules')
    expect(press(key('g'), key(','))).toBe('go.settings')
  })

  it('waits after the first key of a sequence and gives up on a key that completes nothing', () => {
    expect(matchStrokes([key('g')], bindings)).toEqual({ pending: true })
    expect(press(key('g'), key('q'))).toBeUndefined()
    expect(press(key('g'), key('q'), key('g'), key('c'))).toBe('go.clients')
    expect(press(key('c'))).toBeUndefined()
  })

  it('does not take Ctrl+letter for a plain letter', () => {
    expect(press(key('g'), key('c', { ctrlKey: true }))).toBeUndefined()
  })

  it("opens the shortcut sheet with '?', typed with Shift", () => {
    expect(press(key('?', { shiftKey: true }))).toBe('help.shortcuts')
  })

  it('gives no two commands the same shortcut, and no shortcut that is the start of another', () => {
    const shortcuts = listCommands().flatMap((c) => (c.shortcut ? [c.shortcut] : []))
    expect(new Set(shortcuts).size).toBe(shortcuts.length)
    for (const a of shortcuts)
      for (const b of shortcuts) if (a !== b) expect(b.startsWith(`${a} `), `${a} is a prefix of ${b}`).toBe(false)
  })
})
