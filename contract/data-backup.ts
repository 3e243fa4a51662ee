// Data backup (EMQX 5.8 emqx_mgmt_api_data_backup): export an archive, list, download, delete and
// upload archives, import one. Written once for the server and the browser. An archive is
// `emqx-export-<local time>.tar.gz` holding a folder of that name with META.hocon, cluster.hocon
// (the configuration roots) and mnesia/<table> (the built-in database's tables).
import * as v from 'valibot'
import { paged, pagingEntries } from './paging.ts'

export const BACKUP_SUFFIX = '.tar.gz'

/**
 * The table sets `table_sets` may name: EMQX's (psk aside: the embedded server has no PSK table)
 * and `delayed`, the embedded server's delayed messages, which EMQX does not back up.
 */
export const TABLE_SETS = ['api_keys', 'banned', 'builtin_authn', 'builtin_authz', 'builtin_retainer', 'dashboard_users', 'delayed'] as const
export type TableSet = (typeof TABLE_SETS)[number]

/** `POST /data/export`: every table set and root when left out. */
export const ExportBody = v.object({
  table_sets: v.optional(v.array(v.string('must be a string'), 'must be an array of strings')),
  root_keys: v.optional(v.array(v.string('must be a string'), 'must be an array of strings')),
})
export type ExportRequest = v.InferOutput<typeof ExportBody>

/** `POST /data/import`: a file this node holds (`node`, when given, must be a running node). */
export const ImportBody = v.object({
  filename: v.string('required field'),
  node: v.optional(v.string()),
})

/** `?node=` of a file's download and delete. */
export const FileNodeQuery = v.object({ node: v.optional(v.string()) })

/** `GET /data/files`: EMQX's page and limit (100 by default). */
export const FilesQuery = v.object({ ...pagingEntries(100) })

/** One archive as EMQX describes it: creation time in RFC 3339 (seconds) and as epoch seconds. */
export const backupFileSchema = v.object({
  filename: v.string(),
  size: v.number(),
  created_at: v.string(),
  created_at_sec: v.optional(v.number()),
  node: v.string(),
})
export type BackupFile = v.InferOutput<typeof backupFileSchema>

export const backupFilesSchema = paged(backupFileSchema)
export type BackupFiles = v.InferOutput<typeof backupFilesSchema>

/** EMQX's name check: a bare file name ending in .tar.gz. */
export function isBackupName(name: string): boolean {
  return name.endsWith(BACKUP_SUFFIX) && name.length > BACKUP_SUFFIX.length && !/[/\\\0]/.test(name)
}

/** EMQX's messages (emqx_mgmt_data_backup:format_error/1 and the API module). */
export const BACKUP_ERRORS = {
  badName: { status: 400, code: 'BAD_REQUEST', message: 'invalid backup name: file name must have .tar.gz extension' },
  /** Import of a file this node does not hold (400, as EMQX answers an import). */
  importNotFound: { status: 400, code: 'BAD_REQUEST', message: 'backup file not found' },
  /** Download or delete of a file this node does not hold. */
  notFound: { status: 404, code: 'NOT_FOUND', message: 'backup file not found' },
  missingFile: { status: 400, code: 'BAD_REQUEST', message: 'Missing required parameter: filename' },
  missingMeta: { status: 400, code: 'BAD_REQUEST', message: 'invalid backup archive file: missing META.hocon' },
  badArchiveDir: { status: 400, code: 'BAD_REQUEST', message: 'invalid backup archive content: all files in the archive must be under <backup name> directory' },
  invalidEdition: { status: 400, code: 'BAD_REQUEST', message: 'invalid backup archive content: wrong EMQX edition value in META.hocon' },
  invalidVersion: { status: 400, code: 'BAD_REQUEST', message: 'invalid backup archive content: wrong EMQX version value in META.hocon' },
  eeToCe: { status: 400, code: 'BAD_REQUEST', message: 'importing EMQX Enterprise data backup to EMQX is not allowed' },
  /** Set where raised: `Backup file "<name>" already exists`, `Invalid table sets: a, b`, `Unknown node: n`, ... */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
} as const

export const alreadyExists = (name: string) => `Backup file "${name}" already exists`
export const newerVersion = (backup: string, ours: string) => `[warning] Backup version "${backup}" is newer than EMQX version "${ours}", import is not allowed.\n`
export const unknownNode = (node: string) => `Unknown node: ${node}`
export const tableImportFailed = (table: string, reason: string) => `[error] Failed to import built-in database table: ${table}, reason: ${reason}`
