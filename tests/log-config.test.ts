// GET/PUT /configs/log against the real server: EMQX 5.8's defaults, a level change seen in the real
// log file the server writes, rotation at a small size, and refusals that change nothing.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { LogSettingsSchema } from '../contract/log.ts'
import { serverPerSuite, startTestServer, waitFor } from './support/server.ts'

const s = serverPerSuite()

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '')

describe('/configs/log', () => {
  it('answers EMQX 5.8 defaults: console off, the default file handler on at warning, text, 50MB x 10', async () => {
    const { status, body } = await s.api.get('/configs/log')
    expect(status).toBe(200)
    expect(v.safeParse(LogSettingsSchema, body).success).toBe(true)
    expect(body.console).toMatchObject({ enable: false, level: 'warning', formatter: 'text', time_offset: 'system', timestamp_format: 'auto', single_line: true, max_depth: 100, payload_encode: 'text' })
    expect(body.file.default).toMatchObject({ enable: true, level: 'warning', formatter: 'text', path: '${EMQX_LOG_DIR}/emqx.log', rotation_size: '50MB', rotation_count: 10 })
    expect(body.throttling).toEqual({ time_window: '1m' })
  })

  it('puts a level in force at once: debug lines appear in the file, and go again at warning', async () => {
    const path = join(s.t.dataDir, 'log', 'emqx.log')
    const put = await s.api.request('PUT', '/configs/log', { file: { default: { level: 'debug' } } })
    expect(put.status).toBe(200)
    expect(put.body.file.default.level).toBe('debug')
    const first = await s.t.connect({ clientId: 'seen-at-debug' })
    await first.endAsync()
    await waitFor(() => read(path).includes('connection_closed'), 'connection_closed at debug')
    expect(read(path)).toMatch(/\[debug\] tag: SOCKET, msg: connection_accepted, peername: 127\.0\.0\.1:\d+, listener: tcp:default/)

    expect((await s.api.request('PUT', '/configs/log', { file: { default: { level: 'warning' } } })).status).toBe(200)
    const before = read(path).length
    const second = await s.t.connect({ clientId: 'unseen-at-warning' })
    await second.endAsync()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(read(path).slice(before)).not.toContain('unseen-at-warning')
    expect((await s.api.get('/configs/log')).body.file.default.level).toBe('warning')
  })

  it('rotates a handler at a small rotation_size and keeps rotation_count files', async () => {
    const dir = join(s.t.dataDir, 'rotating')
    const put = await s.api.request('PUT', '/configs/log', { file: { small: { enable: true, level: 'debug', path: join(dir, 'small.log'), rotation_size: '1KB', rotation_count: 3 } } })
    expect(put.status).toBe(200)
    expect(Object.keys(put.body.file).sort()).toEqual(['default', 'small'])
    for (let n = 0; n < 12; n++) {
      const client = await s.t.connect({ clientId: `rotate-${n}` })
      await client.endAsync()
    }
    await waitFor(() => read(join(dir, 'small.log.2')).length > 0, 'a third file')
    expect(readdirSync(dir).sort()).toEqual(['small.log', 'small.log.1', 'small.log.2'])
    for (const name of readdirSync(dir)) expect(readFileSync(join(dir, name)).length).toBeLessThanOrEqual(1024)
    expect((await s.api.request('PUT', '/configs/log', { file: { small: { enable: false } } })).status).toBe(200)
  })

  it('refuses a bad level, formatter, time offset or an unwritable path with 400, and changes nothing', async () => {
    const before = (await s.api.get('/configs/log')).body
    const bad = [
      { console: { level: 'loud' } },
      { file: { default: { formatter: 'xml' } } },
      { console: { time_offset: '8 hours' } },
      { file: { default: { path: '/proc/no/such/dir/emqx.log' } } },
      { file: { default: { rotation_count: 0 } } },
      { console: { with_mfa: true } },
    ]
    for (const body of bad) {
      const answer = await s.api.request('PUT', '/configs/log', body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.code).toBe('BAD_REQUEST')
      expect(typeof answer.body.message).toBe('string')
    }
    const path = await s.api.request('PUT', '/configs/log', { file: { default: { path: '/proc/no/such/dir/emqx.log' } } })
    expect(path.body.message).toContain('file.default.path: cannot write to /proc/no/such/dir/emqx.log')
    expect((await s.api.get('/configs/log')).body).toEqual(before)
  })

  it('takes the un-named handler form and EMQX older key names into the default handler', async () => {
    const put = await s.api.request('PUT', '/configs/log', { file: { level: 'info', format: 'json' } })
    expect(put.status).toBe(200)
    expect(put.body.file.default).toMatchObject({ level: 'info', formatter: 'json' })
    expect(put.body.file.level).toBeUndefined()
    expect((await s.api.request('PUT', '/configs/log', { file: { default: { level: 'warning', formatter: 'text' } } })).status).toBe(200)
  })
})

describe('/configs/log across a restart', () => {
  it('keeps the handlers in SQLite and puts them in force again at start', async () => {
    const first = await startTestServer()
    const api = await first.login()
    expect((await api.request('PUT', '/configs/log', { file: { default: { level: 'info', formatter: 'json' } } })).status).toBe(200)
    await first.close({ keepData: true })
    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const again = await second.login()
      expect((await again.get('/configs/log')).body.file.default).toMatchObject({ level: 'info', formatter: 'json' })
      const path = join(second.dataDir, 'log', 'emqx.log')
      await waitFor(() => read(path).includes('"msg":"listener_started"'), 'an info record in JSON')
    } finally {
      await second.close()
    }
  })
})
