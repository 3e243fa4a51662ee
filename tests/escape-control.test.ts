// Client-provided text shown escaped: the one function the terminal pane, tables and payload views share.
import { describe, expect, it } from 'vitest'
import { displayText, escapeControl } from '../src/ui/escapeControl.ts'

describe('escaping control characters for display', () => {
  it('writes an escape sequence in a client id as text, as the terminal pane does', () => {
    expect(escapeControl('sensor-\u001b[2J-clear')).toBe('sensor-\\e[2J-clear')
    expect(escapeControl('bell\u0007client')).toBe('bell\\x07client')
  })

  it('escapes line and paragraph separators and bidirectional overrides that would reorder a line', () => {
    expect(escapeControl('a\u2028b\u202etxt.exe')).toBe('a\\u2028b\\u202etxt.exe')
    expect(escapeControl('\u2066x\u2069')).toBe('\\u2066x\\u2069')
  })

  it('keeps line feeds and tabs for multi-line payload views, escaping the rest', () => {
    expect(escapeControl('line1\nline2\u001b[2J\ttab\r', { keepLines: true })).toBe('line1\nline2\\e[2J\ttab\\r')
    expect(escapeControl('line1\nline2')).toBe('line1\\nline2')
  })

  it('leaves other text alone, emoji joiners and Chinese included', () => {
    expect(escapeControl('主题/温度 👩‍💻 ok')).toBe('主题/温度 👩‍💻 ok')
  })

  it('shows any cell value as text: strings escaped, numbers as written, nothing as empty', () => {
    expect(displayText('a\u001bb')).toBe('a\\eb')
    expect(displayText(42)).toBe('42')
    expect(displayText(false)).toBe('false')
    expect(displayText(undefined)).toBe('')
    expect(displayText(null)).toBe('')
  })
})
