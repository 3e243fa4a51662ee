// The backup commands as the palette, scripts and the CLI run them, through the console's API client
// against two real servers: export on A, download, upload (base64, as the screen sends a picked
// file) and import on B, delete; refusals come back as the server words them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../contract/api-error.ts'
import type { BackupFile } from '../src/api/dataBackup.ts'
import type { Api } from '../src/api/index.ts'
import { consoleApi, invalidArgs, runCommand } from './support/commands.ts'
import { startTestServer, type TestServer } from './support/server.ts'

let a: TestServer
let b: TestServer
let apiA: Api
let apiB: Api

beforeAll(async () => {
  ;[a, b] = await Promise.all([startTestServer(), startTestServer()])
  ;[apiA, apiB] = await Promise.all([consoleApi(a), consoleApi(b)])
})

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
})

describe('backup commands', () => {
  it('check names and table sets before asking the server', () => {
    expect(invalidArgs('backup.import', { filename: 'x.zip' })).toEqual(['filename:err.backupName'])
    expect(invalidArgs('backup.delete', { filename: '../x.tar.gz' })).toEqual(['filename:err.backupName'])
    expect(invalidArgs('backup.export', { table_sets: 'banned, nope' })).toEqual(['table_sets:err.tableSets'])
    expect(invalidArgs('backup.export', { table_sets: 'banned,api_keys' })).toEqual([])
  })

  it('export, download, upload, import and delete', async () => {
    await apiA.banned.create({ as: 'username', who: 'spammer', reason: 'by command' })
    const file = (await runCommand(apiA, 'backup.export', { table_sets: 'banned' })) as BackupFile
    expect((await apiA.dataBackup.list()).data.map((f) => f.filename)).toEqual([file.filename])

    const downloaded = (await runCommand(apiA, 'backup.download', { filename: file.filename })) as { size: number }
    expect(downloaded).toEqual({ filename: file.filename, size: file.size })
    const bytes = Buffer.from(await (await apiA.dataBackup.download(file.filename)).arrayBuffer())
    await runCommand(apiB, 'backup.upload', { filename: file.filename, content: bytes.toString('base64') })
    await runCommand(apiB, 'backup.import', { filename: file.filename })
    expect((await apiB.banned.list()).data).toEqual([expect.objectContaining({ as: 'username', who: 'spammer', reason: 'by command' })])

    const again = await runCommand(apiB, 'backup.upload', { filename: file.filename, content: bytes.toString('base64') }).catch((error: unknown) => error)
    expect(again).toBeInstanceOf(ApiError)
    expect(again).toMatchObject({ status: 400, message: `Backup file "${file.filename}" already exists` })

    await runCommand(apiB, 'backup.delete', { filename: file.filename })
    expect((await apiB.dataBackup.list()).data).toEqual([])
    await expect(runCommand(apiB, 'backup.import', { filename: file.filename })).rejects.toMatchObject({ status: 400, message: 'backup file not found' })
  })
})
