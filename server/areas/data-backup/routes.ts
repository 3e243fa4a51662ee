// /data/export, /data/import, /data/files and /data/files/:filename (EMQX 5.8 emqx_mgmt_api_data_backup).
// Files live on this node only: a `node` naming another is refused as EMQX refuses an unknown node.
import type { FastifyInstance } from 'fastify'
import {
  BACKUP_ERRORS,
  ExportBody,
  FileNodeQuery,
  FilesQuery,
  ImportBody,
  unknownNode,
  type BackupFile,
} from '../../../contract/data-backup.ts'
import type { Page } from '../../../contract/paging.ts'
import type { Broker } from '../../broker/broker.ts'
import { badRequest, contractError, parseInput } from '../../http/errors.ts'
import { pageOf } from '../../http/paging.ts'
import { multipartFile } from '../../http/multipart.ts'
import type { DataBackups } from './backups.ts'

/** The largest archive an upload may carry. */
const UPLOAD_LIMIT = 1024 * 1024 * 1024

type FileParams = { Params: { filename: string } }

export async function dataBackupRoutes(app: FastifyInstance, deps: { broker: Broker; feature: DataBackups }): Promise<void> {
  const backups = deps.feature
  const checkNode = (node: string | undefined) => {
    if (node !== undefined && node !== deps.broker.node) throw badRequest(unknownNode(node))
  }

  // Uploads come as multipart/form-data, the file in the part named `filename` (EMQX's file_schema).
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: UPLOAD_LIMIT }, (_request, body, done) => done(null, body))

  app.post('/data/export', async (request): Promise<BackupFile> => backups.export(parseInput(ExportBody, request.body ?? {}, 'body')))

  app.post('/data/import', async (request, reply) => {
    const body = parseInput(ImportBody, request.body ?? {}, 'body')
    checkNode(body.node)
    await backups.import(body.filename)
    return reply.status(204).send()
  })

  app.get('/data/files', async (request): Promise<Page<BackupFile>> => {
    const query = parseInput(FilesQuery, request.query, 'query')
    return pageOf(backups.list(), query.page, query.limit)
  })

  app.post('/data/files', async (request, reply) => {
    const contentType = String(request.headers['content-type'] ?? '')
    const file = Buffer.isBuffer(request.body) ? multipartFile(request.body, contentType, 'filename') : undefined
    if (!file) throw contractError(BACKUP_ERRORS.missingFile)
    await backups.upload(file.filename, file.data)
    return reply.status(204).send()
  })

  app.get<FileParams>('/data/files/:filename', async (request, reply) => {
    checkNode(parseInput(FileNodeQuery, request.query, 'query').node)
    const content = backups.read(request.params.filename)
    return reply.header('content-type', 'application/octet-stream').send(content)
  })

  app.delete<FileParams>('/data/files/:filename', async (request, reply) => {
    checkNode(parseInput(FileNodeQuery, request.query, 'query').node)
    backups.delete(request.params.filename)
    return reply.status(204).send()
  })
}
