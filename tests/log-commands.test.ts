// The logging commands as the palette, scripts and the CLI run them, against the real server: each
// change is seen in GET /configs/log and in the log file the server writes.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getCommand } from '../commands/registry.ts'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'
import { waitFor } from './support/server.ts'

const suite = consoleSuite()

const run = (id: string, raw: Record<string, unknown> = {}) => runCommand(suite.api, id, raw)
const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '')

describe('log commands', () => {
  it('log.update changes the default file handler, keeping what is left out', async () => {
    await run('log.update', { level: 'info', formatter: 'json' })
    const settings = await suite.api.log.get()
    expect(settings.file?.default).toMatchObject({ level: 'info', formatter: 'json', rotation_count: 10, rotation_size: '50MB', enable: true })
    const client = await suite.ts.connect({ clientId: 'json-line' })
    await client.endAsync()
    await run('log.update', { level: 'warning', formatter: 'text' })
    expect((await suite.api.log.get()).file?.default).toMatchObject({ level: 'warning', formatter: 'text' })
  })

  it('log.update with a new name adds a handler writing its own file; log.level sets every enabled handler', async () => {
    const path = join(suite.ts.dataDir, 'extra', 'debug.log')
    await run('log.update', { name: 'extra', enable: 'true', level: 'notice', path, rotation_size: '1MB', rotation_count: '2' })
    expect((await suite.api.log.get()).file?.extra).toMatchObject({ enable: true, level: 'notice', path, rotation_size: '1MB', rotation_count: 2 })
    await run('log.level', { level: 'debug' })
    const settings = await suite.api.log.get()
    expect(settings.file?.default?.level).toBe('debug')
    expect(settings.file?.extra?.level).toBe('debug')
    // The console handler is off: its level stays.
    expect(settings.console?.level).toBe('warning')
    const client = await suite.ts.connect({ clientId: 'debug-line' })
    await client.endAsync()
    await waitFor(() => read(path).includes('connection_accepted'), 'a debug record in the new handler file')
    await run('log.level', { level: 'warning' })
    await run('log.update', { name: 'extra', enable: 'false' })
  })

  it('log.console.update changes the console handler only', async () => {
    await run('log.console.update', { level: 'error', time_offset: '+08:00' })
    const settings = await suite.api.log.get()
    expect(settings.console).toMatchObject({ enable: false, level: 'error', time_offset: '+08:00' })
    expect(settings.file?.default?.time_offset).toBe('system')
  })

  it('refuses what EMQX refuses before sending it, and the server refuses a path it cannot write', async () => {
    expect(invalidArgs('log.level', { level: 'loud' })).toEqual(['level:err.oneOf'])
    expect(invalidArgs('log.update', { time_offset: '8h' })).toEqual(['time_offset:err.logTimeOffset'])
    expect(invalidArgs('log.update', { name: '1st' })).toEqual(['name:err.logHandlerName'])
    expect(invalidArgs('log.update', { rotation_count: '0' }).map((e) => e.split(':')[0])).toEqual(['rotation_count'])
    expect(invalidArgs('log.update', { rotation_size: 'infinity' })).toEqual([])
    await expect(run('log.update', { path: '/proc/no/such/dir/emqx.log' })).rejects.toMatchObject({ status: 400, code: 'BAD_REQUEST' })
  })

  it('completes file handler names', async () => {
    const names = await getCommand('log.update')!.complete!.name!(suite.api, '', new AbortController().signal)
    expect(names).toContain('default')
  })
})
