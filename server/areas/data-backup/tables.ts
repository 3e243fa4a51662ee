// The built-in database's tables a backup holds: each SQLite table under the table set and the
// mnesia file name EMQX gives its counterpart. Rows are JSON (a BLOB as `{"$binary": base64}`): the
// embedded server has no mnesia, so the layout is EMQX's and the content its own.
import type { TableSet } from '../../../contract/data-backup.ts'
import type { Database } from '../../store/db.ts'

export interface TableSection {
  set: TableSet
  table: string
  /** `mnesia/<file>` in the archive: EMQX's table name. */
  file: string
}

export const TABLE_SECTIONS: readonly TableSection[] = [
  { set: 'dashboard_users', table: 'dashboard_users', file: 'emqx_admin' },
  { set: 'api_keys', table: 'api_keys', file: 'emqx_app' },
  { set: 'banned', table: 'banned', file: 'emqx_banned' },
  { set: 'builtin_authn', table: 'authn_users', file: 'emqx_authn_mnesia' },
  { set: 'builtin_authz', table: 'authz_rules', file: 'emqx_acl' },
  { set: 'builtin_retainer', table: 'retained_messages', file: 'emqx_retainer_message' },
  // EMQX keeps delayed messages in `emqx_delayed` and does not back them up; here they are data.
  { set: 'delayed', table: 'delayed_messages', file: 'emqx_delayed' },
]

export type Row = Record<string, unknown>

function encodeValue(value: unknown): unknown {
  return value instanceof Uint8Array ? { $binary: Buffer.from(value).toString('base64') } : value
}

function decodeValue(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const binary = (value as Record<string, unknown>).$binary
    if (typeof binary === 'string' && Object.keys(value).length === 1) return Buffer.from(binary, 'base64')
  }
  return value
}

/** Every row of a table, as the archive holds it. */
export function dumpTable(db: Database, table: string): Buffer {
  const rows = db.sql.prepare(`SELECT * FROM ${table}`).all() as Row[]
  return Buffer.from(JSON.stringify(rows.map((row) => Object.fromEntries(Object.entries(row).map(([column, value]) => [column, encodeValue(value)])))))
}

/** The rows of an archive's table file, checked against the table's columns; the problem as text otherwise. */
export function readRows(db: Database, table: string, content: Buffer): Row[] | string {
  let parsed: unknown
  try {
    parsed = JSON.parse(content.toString('utf8'))
  } catch (error) {
    return `not JSON: ${(error as Error).message}`
  }
  if (!Array.isArray(parsed)) return 'not a list of rows'
  const columns = new Set((db.sql.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((column) => column.name))
  const rows: Row[] = []
  for (const row of parsed) {
    if (!row || typeof row !== 'object' || Array.isArray(row)) return 'a row is not an object'
    const unknown = Object.keys(row).filter((column) => !columns.has(column))
    if (unknown.length > 0) return `unknown columns: ${unknown.join(', ')}`
    rows.push(Object.fromEntries(Object.entries(row as Row).map(([column, value]) => [column, decodeValue(value)])))
  }
  return rows
}

/** Writes rows over what the table holds: a row with the same key replaces it, others stay (mnesia's keep_tables). */
export function restoreRows(db: Database, table: string, rows: readonly Row[]): void {
  for (const row of rows) {
    const columns = Object.keys(row)
    if (columns.length === 0) continue
    const sql = `INSERT OR REPLACE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`
    db.sql.prepare(sql).run(...(columns.map((column) => row[column]) as Array<string | number | bigint | null | Uint8Array>))
  }
}
