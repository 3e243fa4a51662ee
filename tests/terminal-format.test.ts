import { describe, expect, it } from 'vitest'
import { formatEntry, summarizeEntry } from '../src/app/terminal/format.ts'
import { escapeControl } from '../src/ui/escapeControl.ts'
import { createTerminalLog, type TerminalEntry } from '../src/state/terminalLog.ts'

const labels = { cancelled: 'cancelled', invalid: 'invalid arguments' }
const at = new Date(2024, 0, 1, 9, 5, 7).getTime()

function entry(partial: Partial<TerminalEntry>): TerminalEntry {
  return { seq: 1, time: at, source: 'client.kick', status: 'ok', ...partial }
}

describe('terminal lines', () => {
  it('show time, command id, arguments and a green ok', () => {
    expect(formatEntry(entry({ args: 'clientid=abc' }), labels)).toBe(
      '\x1b[90m[09:05:07]\x1b[0m \x1b[1mclient.kick\x1b[0m clientid=abc → \x1b[32mok\x1b[0m\r\n',
    )
  })

  it('show errors in red with their message', () => {
    const line = formatEntry(entry({ status: 'error', message: 'CLIENTID_NOT_FOUND: Client ID not found' }), labels)
    expect(line).toContain('\x1b[31merror: CLIENTID_NOT_FOUND: Client ID not found\x1b[0m')
  })

  it('make control characters in user text visible instead of letting them act', () => {
    const hostile = entry({ args: 'clientid="a\x1b[2J\x1b[31mb"', message: 'x\r\ny\u009b1m\x07', status: 'error' })
    const line = formatEntry(hostile, labels)
    // Only the formatter's own SGR sequences and the final CRLF remain as control characters.
    const stripped = line.replace(/\x1b\[(?:0|1|31|32|33|90)m/g, '').replace(/\r\n$/, '')
    expect(stripped).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/)
    expect(line).toContain('a\\e[2J\\e[31mb')
    expect(line).toContain('x\\r\\ny\\x9b1m\\x07')
  })

  it('escape every C0, DEL and C1 control and leave other text alone', () => {
    expect(escapeControl('tab\there')).toBe('tab\\there')
    expect(escapeControl('\u0000\u007f\u0085')).toBe('\\x00\\x7f\\x85')
    expect(escapeControl('客户端 ✓ plain')).toBe('客户端 ✓ plain')
  })

  it('summarize an entry for the status bar without colours', () => {
    expect(summarizeEntry(entry({ args: 'clientid=abc', status: 'cancelled' }), labels)).toBe(
      '[09:05:07] client.kick clientid=abc → cancelled',
    )
    expect(summarizeEntry(entry({ source: 'ws.messages', status: 'info', message: 't/1 \x1b[2J' }), labels)).toBe(
      '[09:05:07] ws.messages t/1 \\e[2J',
    )
  })
})

describe('the terminal log', () => {
  it('keeps at most its capacity, oldest dropped first, in order', () => {
    const log = createTerminalLog(3)
    for (const n of [1, 2, 3, 4, 5]) log.append({ source: `s.${n}`, status: 'info' })
    expect(log.entries().map((e) => e.source)).toEqual(['s.3', 's.4', 's.5'])
    expect(log.entries().map((e) => e.seq)).toEqual([3, 4, 5])
    expect(log.last()?.source).toBe('s.5')
  })

  it('tells subscribers about new entries and clearing, until they unsubscribe', () => {
    const log = createTerminalLog(10)
    const seen: (string | null)[] = []
    const stop = log.subscribe((e) => seen.push(e ? e.source : null))
    log.append({ source: 'a.b', status: 'ok' })
    log.clear()
    stop()
    log.append({ source: 'c.d', status: 'ok' })
    expect(seen).toEqual(['a.b', null])
    expect(log.entries().map((e) => e.source)).toEqual(['c.d'])
  })
})
