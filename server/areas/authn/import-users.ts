// Reading the users of `POST /authentication/{id}/import_users`, as EMQX's emqx_authn_mnesia: a
// `.csv` file (a header line naming the columns) or a `.json` file (a list of objects) sent as the
// multipart part `filename`, or a JSON body that is the list itself. `type=hash` rows carry
// `password_hash` (and `salt`), `type=plain` rows `password`; `is_superuser` is true only for true/"true".
import { ApiError } from '../../../contract/api-error.ts'
import type { ImportType } from '../../../contract/authn.ts'
import type { ImportedUser } from './built-in-database.ts'

const bad = (message: string) => new ApiError(400, 'BAD_REQUEST', message)

/** Rows of a CSV text (RFC 4180 quotes), the header line first. */
export function csvRows(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      row.push(field)
      field = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += char
  }
  if (field !== '' || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows.filter((cells) => cells.some((cell) => cell.trim() !== ''))
}

function csvObjects(text: string): Record<string, unknown>[] {
  const [header, ...rows] = csvRows(text)
  if (!header) return []
  const names = header.map((name) => name.trim())
  return rows.map((cells) => Object.fromEntries(names.map((name, i) => [name, cells[i]?.trim() ?? ''])))
}

/** The rows of an uploaded file, by its extension as EMQX decides. */
export function fileRows(filename: string, data: Buffer): unknown[] {
  const extension = /\.[^./\\]*$/.exec(filename)?.[0].toLowerCase() ?? ''
  if (extension === '.csv') return csvObjects(data.toString('utf8'))
  if (extension === '.json') {
    let parsed: unknown
    try {
      parsed = JSON.parse(data.toString('utf8'))
    } catch {
      throw bad('invalid_json')
    }
    if (!Array.isArray(parsed)) throw bad('unknown_file_format')
    return parsed
  }
  if (extension === '') throw bad('unknown_file_format')
  throw bad(`unsupported_file_format: ${extension}`)
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined)

/** Each row as a user to import; a row without the field its type needs fails the whole import. */
export function importedUsers(rows: readonly unknown[], type: ImportType): ImportedUser[] {
  return rows.map((row) => {
    if (!row || typeof row !== 'object') throw bad('bad_format')
    const fields = row as Record<string, unknown>
    const userId = text(fields.user_id)
    if (userId === undefined) throw bad('bad_format')
    const isSuperuser = fields.is_superuser === true || fields.is_superuser === 'true'
    if (type === 'plain') {
      const password = text(fields.password)
      if (password === undefined) throw bad('plain_import_requires_password_field')
      return { userId, isSuperuser, password }
    }
    const passwordHash = text(fields.password_hash)
    if (passwordHash === undefined) throw bad('hash_import_requires_password_hash_field')
    return { userId, isSuperuser, passwordHash, salt: text(fields.salt) ?? '' }
  })
}
