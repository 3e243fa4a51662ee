// Test client messages in the terminal pane (issue 5): one line per message whatever the topic and
// payload hold (escape sequences, OSC titles, C1 controls, CR/LF are shown, never acted on), colours
// by direction and QoS, the 1 MB notice, and at most MAX_LINES_PER_FRAME lines per frame.
import { describe, expect, it } from 'vitest'
import { formatEntry, summarizeEntry, type FormatLabels } from '../src/app/terminal/format.ts'
import { TestClientManager } from '../src/testclient/manager.ts'
import type { TestMessage } from '../src/testclient/messages/store.ts'
import { MAX_VIEWABLE_PAYLOAD } from '../src/testclient/payload.ts'
import { feedTerminal, MAX_LINES_PER_FRAME, PREVIEW_CHARS, streamEntry, writeBatch } from '../src/features/websocket/terminalFeed.ts'
import { createTerminalLog, type TerminalEntry } from '../src/state/terminalLog.ts'
import { t } from './support/testClient.ts'

const labels: FormatLabels = { cancelled: t('terminal.cancelled'), invalid: t('terminal.invalid'), tooLarge: t('testClient.payloadTooLarge') }
const at = new Date(2024, 0, 1, 9, 5, 7).getTime()
const utf8 = (text: string) => new TextEncoder().encode(text)

let nextId = 1
function message(partial: Partial<TestMessage> = {}): TestMessage {
  return { id: nextId++, direction: 'in', topic: 't/1', qos: 0, retain: false, payload: utf8('hello'), time: at, ...partial }
}

function line(partial: Partial<TestMessage> = {}, connection = 'default'): string {
  return formatEntry({ seq: 1, ...streamEntry(connection, message(partial)) } as TerminalEntry, labels)
}

/** The SGR codes format.ts writes itself; nothing else may reach the terminal as a control. */
const OWN_SGR = /\x1b\[(?:0|1|31|32|33|34|35|36|90)m/g

describe('a streamed message in the terminal', () => {
  it('reads [time] ← connection topic qos payload (size)', () => {
    expect(line({ topic: 't/1', qos: 1, payload: utf8('{"a":1}') })).toBe(
      '\x1b[90m[09:05:07]\x1b[0m \x1b[36m← ws.default t/1\x1b[0m \x1b[34mq1\x1b[0m {"a":1} \x1b[90m(7 B)\x1b[0m\r\n',
    )
  })

  it('is one line with only its own colours when the topic and payload hold ESC, OSC, C1 controls and CR/LF', () => {
    const hostile = [
      '\x1b[2J\x1b[H', // clear the screen, cursor home
      '\x1b]0;pwned\x07', // OSC: set the window title
      '\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\', // OSC 8 hyperlink
      '\u009b31m', // C1 CSI (UTF-8 encoded) turning text red
      '\u0085\u008d', // C1 next line, reverse line feed
      'a\r\nb\rc\nd', // CR/LF
      '\x07\x08\x7f', // bell, backspace, DEL
    ].join('|')
    const text = line({ topic: `t/${hostile}`, payload: utf8(`payload ${hostile}`) })
    expect(text.endsWith('\r\n')).toBe(true)
    const body = text.slice(0, -2)
    expect(body).not.toMatch(/[\r\n]/)
    expect(body.replace(OWN_SGR, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/)
    // What the payload said is still readable, escaped.
    expect(body).toContain('\\e[2J\\e[H|\\e]0;pwned\\x07|')
    expect(body).toContain('\\x9b31m|\\x85\\x8d|a\\r\\nb\\rc\\nd|\\x07\\x08\\x7f')
  })

  it('shows a raw 0x9B byte (not UTF-8) as the replacement character, never as an 8-bit CSI', () => {
    const text = line({ payload: Uint8Array.from([0x41, 0x9b, 0x33, 0x31, 0x6d, 0x1b, 0x5b, 0x32, 0x4a]) })
    expect(text).toContain('A\uFFFD31m\\e[2J')
    expect(text.slice(0, -2).replace(OWN_SGR, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/)
  })

  it('colours received messages cyan with ← and published ones magenta with →', () => {
    const received = line({ direction: 'in' })
    const published = line({ direction: 'out' })
    expect(received).toContain('\x1b[36m← ws.default t/1')
    expect(published).toContain('\x1b[35m→ ws.default t/1')
    expect(received).not.toContain('\x1b[35m')
    expect(published).not.toContain('\x1b[36m')
  })

  it('colours QoS 0, 1 and 2 differently and marks retained messages', () => {
    const qos = ([0, 1, 2] as const).map((q) => /\x1b\[(\d+)mq\d/.exec(line({ qos: q }))?.[1])
    expect(qos).toEqual(['90', '34', '33'])
    expect(line({ retain: true })).toContain('\x1b[90mq0\x1b[0m \x1b[1mr\x1b[0m hello')
    expect(line({ retain: false })).not.toContain('\x1b[1mr')
  })

  it('shows the 1 MB notice instead of a payload over 1 MB, with its size', () => {
    const big = new Uint8Array(MAX_VIEWABLE_PAYLOAD + 1).fill(0x1b)
    const entry = streamEntry('default', message({ payload: big }))
    expect(entry.stream).toMatchObject({ payload: '', bytes: MAX_VIEWABLE_PAYLOAD + 1, tooLarge: true })
    const text = line({ payload: big })
    expect(text).toContain('\x1b[90mPayloads over 1 MB cannot be viewed\x1b[0m \x1b[90m(1048577 B)\x1b[0m\r\n')
    expect(text).not.toContain('\\e')
    // Exactly 1 MB is still previewed.
    expect(streamEntry('default', message({ payload: new Uint8Array(MAX_VIEWABLE_PAYLOAD).fill(0x61) })).stream.tooLarge).toBeUndefined()
  })

  it(`previews the first ${PREVIEW_CHARS} characters of a long payload, marked as cut`, () => {
    const entry = streamEntry('default', message({ payload: utf8('温'.repeat(1000)) }))
    expect(entry.stream.payload).toBe('温'.repeat(PREVIEW_CHARS))
    expect(entry.stream).toMatchObject({ truncated: true, bytes: 3000 })
    expect(formatEntry({ seq: 1, ...entry } as TerminalEntry, labels)).toContain(`${'温'.repeat(PREVIEW_CHARS)}…`)
    expect(streamEntry('default', message({ payload: utf8('x'.repeat(PREVIEW_CHARS)) })).stream.truncated).toBeUndefined()
  })

  it('summarizes a message for the status bar without colours, controls escaped', () => {
    const entry = { seq: 1, ...streamEntry('lab', message({ direction: 'out', topic: 't/\x1b[2J', qos: 2, payload: utf8('a\nb') })) } as TerminalEntry
    expect(summarizeEntry(entry, labels)).toBe('[09:05:07] → ws.lab t/\\e[2J q2 a\\nb (3 B)')
    const big = { seq: 2, ...streamEntry('lab', message({ payload: new Uint8Array(MAX_VIEWABLE_PAYLOAD + 1) })) } as TerminalEntry
    expect(summarizeEntry(big, labels)).toBe('[09:05:07] ← ws.lab t/1 q0 Payloads over 1 MB cannot be viewed (1048577 B)')
  })
})

describe('writing batches to the terminal', () => {
  it(`writes ${MAX_LINES_PER_FRAME} lines and one line counting the rest when a frame brings more`, () => {
    const log = createTerminalLog(5000)
    const batch = Array.from({ length: MAX_LINES_PER_FRAME + 250 }, (_, i) => message({ topic: `t/${i}` }))
    writeBatch(log, 'default', batch, t)
    const entries = log.entries()
    expect(entries).toHaveLength(MAX_LINES_PER_FRAME + 1)
    expect(entries[0]).toMatchObject({
      source: 'ws.default',
      status: 'info',
      message: '… 250 more messages this frame not shown in the terminal (the counters include them)',
    })
    expect(entries[0].stream).toBeUndefined()
    // The newest ones are shown, oldest first.
    expect(entries.slice(1).map((e) => e.stream?.topic)).toEqual(batch.slice(250).map((m) => m.topic))
  })

  it(`writes a frame of exactly ${MAX_LINES_PER_FRAME} messages without a summary`, () => {
    const log = createTerminalLog(5000)
    writeBatch(log, 'default', Array.from({ length: MAX_LINES_PER_FRAME }, () => message()), t)
    expect(log.entries()).toHaveLength(MAX_LINES_PER_FRAME)
    expect(log.entries().every((e) => e.stream)).toBe(true)
  })

  it('feeds every connection once per frame, including tabs opened later, and stops for closed ones', () => {
    const frames: (() => void)[] = []
    const frame = () => {
      for (const flush of frames.splice(0)) flush()
    }
    const manager = new TestClientManager({ defaults: { host: '127.0.0.1', tls: false }, schedule: (flush) => void frames.push(flush) })
    const log = createTerminalLog(5000)
    const stop = feedTerminal(manager, t, log)
    const push = (name: string, topic: string) =>
      manager.resolve(name).store.push({ direction: 'in', topic, qos: 0, retain: false, payload: utf8('x'), time: at })

    push('default', 'a/1')
    push('default', 'a/2')
    expect(log.entries()).toEqual([])
    frame()
    expect(log.entries().map((e) => [e.source, e.stream?.topic])).toEqual([
      ['ws.default', 'a/1'],
      ['ws.default', 'a/2'],
    ])

    manager.add('lab')
    push('lab', 'b/1')
    frame()
    expect(log.last()).toMatchObject({ source: 'ws.lab', stream: { topic: 'b/1' } })

    const lab = manager.resolve('lab')
    manager.remove('lab')
    lab.store.push({ direction: 'in', topic: 'b/2', qos: 0, retain: false, payload: utf8('x'), time: at })
    frame()
    expect(log.entries()).toHaveLength(3)

    stop()
    push('default', 'a/3')
    frame()
    expect(log.entries()).toHaveLength(3)
    manager.dispose()
  })
})
