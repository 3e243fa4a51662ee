// The server's logger: EMQX's text and JSON layouts, size-based rotation, sinks, and what a real
// server writes to its log file by default (warnings, into <dataDir>/log/emqx.log) while stdout stays quiet.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { afterEach, describe, expect, it } from 'vitest'
import { logConfigSchema } from '../contract/log.ts'
import { formatRecord, rfc3339Micros, type LogRecord } from '../server/log/format.ts'
import { addLogSink, configureLogging, log, resetLogging } from '../server/log/index.ts'
import { RotatingFile } from '../server/log/rotating-file.ts'
import { endClients, startTestServer, waitFor } from './support/server.ts'

const config = (input: unknown) => v.parse(logConfigSchema({ console: false, file: false }), input)
const handler = config({}).console
const record: LogRecord = { time: Date.UTC(2025, 0, 2, 3, 4, 5) * 1000 + 123_456, level: 'warning', msg: 'alarm_is_activated', fields: { name: 'high_cpu', clientid: 'c1', tag: 'ALARM', payload: 'hi' } }

const dirs: string[] = []
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'server-log-'))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  await endClients()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('log layouts', () => {
  it('writes EMQX text: time, [level], tag and clientid first, then msg and the other keys', () => {
    const line = formatRecord(record, { ...handler, time_offset: 'utc' })
    expect(line).toBe('2025-01-02T03:04:05.123456Z [warning] tag: ALARM, clientid: c1, msg: alarm_is_activated, name: high_cpu, payload: hi\n')
  })

  it('honours time_offset, epoch timestamps, payload_encode, max_depth and chars_limit', () => {
    expect(rfc3339Micros(record.time, '+08:00')).toBe('2025-01-02T11:04:05.123456+08:00')
    expect(rfc3339Micros(record.time, '-02:30')).toBe('2025-01-02T00:34:05.123456-02:30')
    expect(formatRecord(record, { ...handler, timestamp_format: 'epoch' })).toMatch(/^1735787045123456 \[warning\]/)
    expect(formatRecord(record, { ...handler, payload_encode: 'hidden' })).toContain('payload: ******')
    expect(formatRecord(record, { ...handler, payload_encode: 'hex' })).toContain('payload: 6869')
    const deep = { ...record, fields: { a: { b: { c: 1 } } } }
    expect(formatRecord(deep, { ...handler, max_depth: 1 })).toContain('a: {"b":"..."}')
    expect(formatRecord(record, { ...handler, chars_limit: 100 }).length).toBeLessThanOrEqual(104)
  })

  it('writes one JSON object a line: epoch microseconds unless rfc3339, then level, msg and the keys', () => {
    const json = JSON.parse(formatRecord(record, { ...handler, formatter: 'json' }))
    expect(json).toEqual({ time: record.time, level: 'warning', msg: 'alarm_is_activated', name: 'high_cpu', clientid: 'c1', tag: 'ALARM', payload: 'hi' })
    expect(JSON.parse(formatRecord(record, { ...handler, formatter: 'json', timestamp_format: 'rfc3339', time_offset: 'utc' })).time).toBe('2025-01-02T03:04:05.123456Z')
  })

  it('keeps a multi-line value on one line unless single_line is false', () => {
    const multi = { ...record, fields: { reason: 'first\n  second' } }
    expect(formatRecord(multi, handler)).toContain('reason: first second')
    expect(formatRecord(multi, { ...handler, single_line: false })).toContain('reason: first\n  second')
  })
})

describe('rotation', () => {
  it('starts a new file past rotation_size and keeps rotation_count files, the newest lines in the path itself', () => {
    const path = join(tempDir(), 'logs', 'emqx.log')
    const file = new RotatingFile(path, 100, 3)
    for (let n = 0; n < 20; n++) file.write(`line ${String(n).padStart(2, '0')} ${'x'.repeat(30)}\n`)
    file.close()
    expect(readdirSync(join(path, '..')).sort()).toEqual(['emqx.log', 'emqx.log.1', 'emqx.log.2'])
    expect(readFileSync(path, 'utf8')).toContain('line 19')
    expect(readFileSync(`${path}.1`, 'utf8')).toContain('line 17')
    for (const name of ['emqx.log', 'emqx.log.1', 'emqx.log.2']) expect(readFileSync(join(path, '..', name)).length).toBeLessThanOrEqual(100)
  })
})

describe('handlers and sinks', () => {
  it('sends a record to each handler whose level it reaches, and to the sinks', () => {
    const dir = tempDir()
    const token = configureLogging(
      config({ file: { info: { enable: true, level: 'info', path: join(dir, 'info.log') }, errors: { enable: true, level: 'error', path: join(dir, 'error.log'), formatter: 'json' } } }),
      dir,
    )
    const received: LogRecord[] = []
    const detach = addLogSink((r) => received.push(r), 'notice')
    try {
      log.debug('not_written')
      log.info({ clientid: 'c9' }, 'client_connected')
      log.error({ err: new Error('boom') }, 'something_failed')
      expect(readFileSync(join(dir, 'info.log'), 'utf8')).toMatch(/\[info\] clientid: c9, msg: client_connected\n.*\[error\] msg: something_failed, err: Error: boom/)
      expect(readFileSync(join(dir, 'info.log'), 'utf8')).not.toContain('not_written')
      const errors = readFileSync(join(dir, 'error.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
      expect(errors.map((e) => e.msg)).toEqual(['something_failed'])
      expect(errors[0].err.message).toBe('boom')
      expect(received.map((r) => [r.level, r.msg])).toEqual([['error', 'something_failed']])
    } finally {
      detach()
      resetLogging(token)
    }
    log.error('after_reset')
    expect(readFileSync(join(dir, 'info.log'), 'utf8')).not.toContain('after_reset')
  })

  it('a file that cannot be opened changes nothing', () => {
    const dir = tempDir()
    const token = configureLogging(config({ file: { default: { enable: true, path: join(dir, 'a.log') } } }), dir)
    expect(() => configureLogging(config({ file: { default: { enable: true, path: '/proc/no/such/dir/emqx.log' } } }), dir)).toThrow(/cannot write to \/proc\/no/)
    log.warning('still_here')
    expect(readFileSync(join(dir, 'a.log'), 'utf8')).toContain('still_here')
    resetLogging(token)
  })
})

describe('a real server', () => {
  it('writes its warnings to <dataDir>/log/emqx.log by default (EMQX: file handler on, level warning)', async () => {
    const t = await startTestServer()
    try {
      const api = await t.login()
      expect((await api.post('/banned', { as: 'clientid', who: 'refused-one' })).status).toBe(200)
      await expect(t.connect({ clientId: 'refused-one' })).rejects.toThrow()
      const path = join(t.dataDir, 'log', 'emqx.log')
      const text = await waitFor(() => existsSync(path) && readFileSync(path, 'utf8').includes('refused-one') && readFileSync(path, 'utf8'), 'the refusal in emqx.log')
      expect(text).toMatch(/\[warning\] tag: AUTHN, clientid: refused-one, msg: authentication_failure, .*reason: banned/)
      // The connection itself is logged at debug, below the default level.
      expect(text).not.toContain('connection_accepted')
      expect((await api.get('/nodes')).body[0].log_path).toBe(join(t.dataDir, 'log'))
    } finally {
      await t.close()
    }
  })
})
