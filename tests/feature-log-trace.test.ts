// How the Log Trace detail draws a line: escapes and control characters from a payload written out,
// never passed to the terminal; the event kind coloured; search matches marked; and which lines a
// search keeps. Real lines from a real trace.
import { describe, expect, it } from 'vitest'
import { lineMatches, renderTraceLine, traceKind } from '../src/features/logTrace/traceLineView.ts'
import { consoleSuite, runCommand } from './support/commands.ts'
import { connectMqtt, waitFor } from './support/server.ts'
import { followTraceLog } from '../commands/traceFollow.ts'

const suite = consoleSuite()
const ESC = '\x1b'
/** The escapes the view itself writes: SGR colour codes only. */
const OUR_ESCAPES = /\x1b\[\d+m/g

async function tracedLines(payload: Buffer | string, formatter = 'text'): Promise<string[]> {
  const name = `view${formatter}`
  await runCommand(suite.api, 'trace.create', { name, value: `viewer-${formatter}`, start: 'now', end: '+1h', formatter })
  const client = await connectMqtt(suite.ts.mqttUrl, { clientId: `viewer-${formatter}` })
  await client.publishAsync('view/t', payload)
  const lines: string[] = []
  const controller = new AbortController()
  const following = followTraceLog(suite.api, name, { signal: controller.signal, intervalMs: 100, onLines: (chunk) => lines.push(...chunk) })
  await waitFor(() => lines.some((line) => line.includes('publish_to')), 'the publish traced')
  controller.abort()
  await following
  await client.endAsync()
  return lines
}

describe('log trace view lines', () => {
  it('writes a payload’s escape sequences out as text, and colours by event kind', async () => {
    const lines = await tracedLines(Buffer.from(`evil${ESC}[2Jclear\x07bell`))
    const publish = lines.find((line) => line.includes('publish_to') && line.includes('evil'))!
    expect(publish).toBeDefined()
    const drawn = renderTraceLine(publish)
    expect(drawn.endsWith('\r\n')).toBe(true)
    // Nothing but the view's own colour codes reaches xterm.
    const bare = drawn.replace(OUR_ESCAPES, '').replace(/\r\n$/, '')
    expect(bare).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/)
    expect(bare).toContain('evil\\e[2Jclear\\x07bell')
    expect(traceKind(publish)).toBe('PUBLISH')
    expect(drawn.startsWith('\x1b[32m')).toBe(true)
    const connect = lines.find((line) => traceKind(line) === 'MQTT')!
    expect(renderTraceLine(connect).startsWith('\x1b[36m')).toBe(true)
  })

  it('marks every match of a search, keeps the colours around it, and filters lines by it', () => {
    const line = '2026-01-01T10:00:00.000000+00:00 [PUBLISH] c1@127.0.0.1:5000 msg: publish_to, topic: a/b, payload: ab AB'
    const drawn = renderTraceLine(line, 'ab')
    expect(drawn.match(/\x1b\[7m/g)).toHaveLength(2)
    expect(drawn.replace(OUR_ESCAPES, '')).toBe(`${line}\r\n`)
    // The time dimmed, then the kind's colour again.
    expect(drawn).toContain('\x1b[90m2026-01-01T10:00:00.000000+00:00\x1b[0m\x1b[32m')
    expect(lineMatches(line, 'AB')).toBe(true)
    expect(lineMatches(line, 'zz')).toBe(false)
    expect(lineMatches(line, '')).toBe(true)
    expect(lineMatches('x\x07y', '\\x07')).toBe(true)
  })

  it('reads the kind of a JSON line, and marks a failure red', async () => {
    const lines = await tracedLines('json-payload', 'json')
    const publish = lines.find((line) => line.includes('publish_to') && line.includes('json-payload'))!
    expect(traceKind(publish)).toBe('PUBLISH')
    expect(traceKind('2026-01-01T10:00:00.000000+00:00 [AUTHZ] c@h:1 msg: authorization_permission_denied, topic: t')).toBe('AUTHZ')
    expect(renderTraceLine('2026-01-01T10:00:00.000000+00:00 [MQTT] c@h:1 msg: delivery_dropped, reason: no_local').startsWith('\x1b[31m')).toBe(true)
  })
})
