// PEM text pasted into a listener's ssl_options, written to files as EMQX does
// (emqx_tls_lib:ensure_ssl_files): `<data>/certs/listeners/<type>/<name>/cert-<hash>`, the hash the
// first 8 bytes of MD5 over the folder, the file's prefix and the PEM. The configuration then
// holds the path. A value that is not PEM must name a readable file.
import { createHash } from 'node:crypto'
import { accessSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SSL_FILE_FIELDS, type ListenerType, type SslOptions } from '../../../contract/listeners.ts'

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([A-Za-z0-9+/=\s:,-]+?)-----END \1-----/

/** True when the text holds at least one PEM block, as public_key:pem_decode finds one. */
export function isPem(text: string): boolean {
  const m = PEM_BLOCK.exec(text)
  if (!m) return false
  const body = m[2].split(/\r?\n/).filter((line) => line !== '' && !line.includes(':'))
  return body.length > 0 && Buffer.from(body.join(''), 'base64').length > 0
}

/** A bad value of one of the PEM fields, worded as EMQX's `{bad_ssl_config, ...}`. */
export class BadSslConfig extends Error {
  constructor(field: string, reason: string, path?: string) {
    const file = path === undefined ? '' : `file_path => <<"${path}">>,`
    super(`{bad_ssl_config,#{${file}pem_check => ${reason},which_option => <<"ssl_options.${field}">>}}`)
  }
}

function checkFile(field: string, path: string): void {
  try {
    accessSync(path, constants.R_OK)
  } catch {
    throw new BadSslConfig(field, 'enoent', path)
  }
  if (!isPem(readFileSync(path, 'utf8'))) throw new BadSslConfig(field, 'not_pem', path)
}

/** The ssl_options with pasted PEM written to files; throws BadSslConfig (nothing written) on a bad value. */
export function storeCertificates(certsDir: string, type: ListenerType, name: string, ssl: SslOptions): SslOptions {
  const rawDir = `listeners/${type}/${name}`
  const writes: Array<{ path: string; pem: string }> = []
  const next: SslOptions = { ...ssl }
  for (const [field, prefix] of Object.entries(SSL_FILE_FIELDS) as Array<[keyof typeof SSL_FILE_FIELDS, string]>) {
    const value = ssl[field]
    if (value === undefined) continue
    if (value === '') {
      // Only the CA may be left empty.
      if (field !== 'cacertfile') throw new BadSslConfig(field, 'pem_file_path_or_string_is_required')
      delete next[field]
      continue
    }
    if (value.includes('-----BEGIN')) {
      if (!isPem(value)) throw new BadSslConfig(field, 'invalid_pem')
      const hash = createHash('md5').update(rawDir).update(prefix).update(value).digest().subarray(0, 8).toString('hex').toUpperCase()
      const path = join(certsDir, rawDir, `${prefix}-${hash}`)
      writes.push({ path, pem: value })
      next[field] = path
    } else {
      checkFile(field, value)
    }
  }
  for (const { path, pem } of writes) {
    mkdirSync(join(path, '..'), { recursive: true })
    writeFileSync(path, pem, { mode: 0o600 })
  }
  return next
}
