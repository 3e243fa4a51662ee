// Data backups of the embedded server, as EMQX 5.8's emqx_mgmt_data_backup makes and reads them:
// `<data dir>/backup/emqx-export-<local time>.tar.gz` holding `<name>/META.hocon` (edition,
// version), `<name>/cluster.hocon` (the configuration roots, written as JSON, which HOCON reads) and
// `<name>/mnesia/<table>` (tables.ts). An import checks the whole archive first and writes it in
// one SQLite transaction: it lands whole or not at all; then what it changed is put in force.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as v from 'valibot'
import {
  BACKUP_ERRORS,
  BACKUP_SUFFIX,
  TABLE_SETS,
  alreadyExists,
  isBackupName,
  newerVersion,
  tableImportFailed,
  type BackupFile,
  type ExportRequest,
} from '../../../contract/data-backup.ts'
import { ApiError } from '../../../contract/api-error.ts'
import { authenticatorId, type AuthenticatorConfig } from '../../../contract/authn.ts'
import { AuthzSourceBody, type AuthzSourceConfig } from '../../../contract/authz.ts'
import type { Database } from '../../store/db.ts'
import { badRequest, contractError, parseInput } from '../../http/errors.ts'
import { rfc3339 } from '../../http/time.ts'
import { EMQX_VERSION } from '../../http/version.ts'
import type { AuthnFeature } from '../authn/feature.ts'
import { parseConfig } from '../authn/configs.ts'
import type { AuthzFeature } from '../authz/feature.ts'
import { packArchive, readArchive, type ArchiveFiles } from './archive.ts'
import type { ConfigDocument } from './documents.ts'
import { TABLE_SECTIONS, dumpTable, readRows, restoreRows, type Row, type TableSection } from './tables.ts'

const META = 'META.hocon'
const CLUSTER_HOCON = 'cluster.hocon'

/** The roots EMQX 5.8 backs up besides those of the documents (emqx_mgmt_data_backup's CONF_KEYS), accepted in `root_keys`. */
const EMQX_ROOTS = ['delayed', 'rewrite', 'retainer', 'mqtt', 'alarm', 'sysmon', 'sys_topics', 'limiter', 'log', 'durable_sessions', 'prometheus', 'crl_cache', 'conn_congestion', 'force_shutdown', 'flapping_detect', 'broker', 'force_gc', 'zones', 'slow_subs', 'cluster']

export interface BackupDeps {
  db: Database
  dataDir: string
  node: string
  documents: ConfigDocument[]
  authn: AuthnFeature
  authz: AuthzFeature
  /** Whatever else holds imported data in memory and must read it again. */
  afterImport(): void
}

/** An archive read and checked, ready to be written. */
interface CheckedBackup {
  tables: Array<{ section: TableSection; rows: Row[] }>
  documents: Array<{ document: ConfigDocument; stored: unknown; value: unknown }>
  authentication?: Array<{ id: string; config: AuthenticatorConfig }>
  authzSources?: AuthzSourceConfig[]
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0')
}

/** `emqx-export-2024-01-30-15-24-39.355`, in local time as EMQX names it. */
export function backupBaseName(at: Date): string {
  return `emqx-export-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}-${pad(at.getHours())}-${pad(at.getMinutes())}-${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`
}

/** RFC 3339 to the second, as EMQX's `epoch_to_rfc3339(Sec, second)`. */
function secondsRfc3339(seconds: number): string {
  return rfc3339(seconds * 1000).replace(/\.\d{3}(?=[+-Z])/, '')
}

/** The value at `path` in a JSON object, or undefined. */
function at(object: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = object
  for (const key of path) value = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined
  return value
}

function put(object: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = object
  for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>
  node[path[path.length - 1]] = value
}

/** `key = value` lines of META.hocon (or its JSON form). */
function readMeta(text: string): Record<string, string> {
  const meta: Record<string, string> = {}
  for (const match of text.matchAll(/^\s*"?(\w+)"?\s*[=:]\s*"?([^"\n,]*)"?\s*,?\s*$/gm)) meta[match[1]] = match[2].trim()
  return meta
}

/** EMQX's check_version: a backup of a later major or minor version is refused. */
function checkVersion(version: string): void {
  const parse = (text: string) => text.split('.').slice(0, 2).map((part) => Number.parseInt(part, 10))
  const parts = version.split('.')
  const [major, minor] = parse(version)
  if (parts.length < 2 || Number.isNaN(major) || Number.isNaN(minor)) throw contractError(BACKUP_ERRORS.invalidVersion)
  const [ourMajor, ourMinor] = parse(EMQX_VERSION)
  if (major > ourMajor || minor > ourMinor) throw badRequest(newerVersion(version, EMQX_VERSION))
}

export class DataBackups {
  private readonly deps: BackupDeps
  readonly dir: string

  constructor(deps: BackupDeps) {
    this.deps = deps
    this.dir = join(deps.dataDir, 'backup')
  }

  private ensureDir(): string {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    return this.dir
  }

  /** The path of a named file; a name that is no bare `.tar.gz` name is refused as EMQX refuses it. */
  path(filename: string): string {
    if (!isBackupName(filename)) throw contractError(BACKUP_ERRORS.badName)
    return join(this.ensureDir(), filename)
  }

  info(filename: string): BackupFile {
    const stat = statSync(this.path(filename))
    const seconds = Math.floor(stat.ctimeMs / 1000)
    return { filename, size: stat.size, created_at: secondsRfc3339(seconds), created_at_sec: seconds, node: this.deps.node }
  }

  /** Newest first; the same second by name, descending (EMQX's order). */
  list(): BackupFile[] {
    const files = readdirSync(this.ensureDir())
      .filter((name) => isBackupName(name))
      .flatMap((name) => {
        try {
          return [this.info(name)]
        } catch {
          return []
        }
      })
    return files.sort((a, b) => (b.created_at_sec ?? 0) - (a.created_at_sec ?? 0) || (a.filename < b.filename ? 1 : a.filename > b.filename ? -1 : 0))
  }

  /** The file's bytes; 404 when this node has no such file. */
  read(filename: string): Buffer {
    const path = this.path(filename)
    if (!existsSync(path)) throw contractError(BACKUP_ERRORS.notFound)
    return readFileSync(path)
  }

  delete(filename: string): void {
    const path = this.path(filename)
    if (!existsSync(path)) throw contractError(BACKUP_ERRORS.notFound)
    rmSync(path)
  }

  /** Exports every table set and root, or those asked for. */
  export(request: ExportRequest): BackupFile {
    const roots = this.rootNames()
    const unknownRoots = [...new Set(request.root_keys ?? [])].sort().filter((key) => !roots.includes(key))
    if (unknownRoots.length > 0) throw badRequest(`Invalid root keys: ${unknownRoots.join(', ')}`)
    const badSets = [...new Set(request.table_sets ?? [])].sort().filter((set) => !(TABLE_SETS as readonly string[]).includes(set))
    if (badSets.length > 0) throw badRequest(`Invalid table sets: ${badSets.join(', ')}`)

    const now = new Date()
    let name = backupBaseName(now)
    // Two exports within a millisecond would share a name.
    for (let n = 1; existsSync(join(this.ensureDir(), name + BACKUP_SUFFIX)); n++) name = `${backupBaseName(now)}-${n}`
    const files: ArchiveFiles = new Map()
    files.set(`${name}/${META}`, Buffer.from(`edition = ce\nversion = "${EMQX_VERSION}"\n`))
    const conf = this.clusterConfig()
    const keep = request.root_keys
    const chosen = keep ? Object.fromEntries(Object.entries(conf).filter(([root]) => keep.includes(root))) : conf
    files.set(`${name}/${CLUSTER_HOCON}`, Buffer.from(`${JSON.stringify(chosen, null, 2)}\n`))
    for (const section of TABLE_SECTIONS) {
      if (request.table_sets && !request.table_sets.includes(section.set)) continue
      files.set(`${name}/mnesia/${section.file}`, dumpTable(this.deps.db, section.table))
    }
    writeFileSync(join(this.dir, name + BACKUP_SUFFIX), packArchive(files, now), { mode: 0o600 })
    return this.info(name + BACKUP_SUFFIX)
  }

  /** Keeps an uploaded archive once it reads as a backup of its name (else 400, nothing kept). */
  async upload(filename: string, content: Buffer): Promise<void> {
    const path = this.path(filename)
    if (existsSync(path)) throw badRequest(alreadyExists(filename))
    await this.check(filename, content)
    writeFileSync(path, content, { mode: 0o600 })
  }

  /** Imports a file this node holds: checked whole, then written in one transaction. */
  async import(filename: string): Promise<void> {
    const path = this.path(filename)
    if (!existsSync(path)) throw contractError(BACKUP_ERRORS.importNotFound)
    const backup = await this.check(filename, readFileSync(path))
    this.write(backup)
    this.putInForce(backup)
  }

  private rootNames(): string[] {
    return [...new Set([...EMQX_ROOTS, ...this.deps.documents.map((doc) => doc.path[0]), 'authentication', 'authorization', 'auto_subscribe', 'topic_metrics'])]
  }

  /** cluster.hocon's roots: the stored documents, the authentication chain and the authorization sources. */
  private clusterConfig(): Record<string, unknown> {
    const conf: Record<string, unknown> = {}
    for (const doc of this.deps.documents) {
      const stored = doc.store.get(doc.key)
      if (stored !== undefined) put(conf, doc.path, stored)
    }
    const chain = this.deps.authn.repository.listAuthenticators().map((entry) => entry.config)
    if (chain.length > 0) conf.authentication = chain
    const sources = this.deps.authz.list()
    if (sources.length > 0) put(conf, ['authorization', 'sources'], sources)
    return conf
  }

  /** Reads and checks an archive named `filename` whole; the first problem is a 400 as EMQX words it. */
  private async check(filename: string, content: Buffer): Promise<CheckedBackup> {
    let files: ArchiveFiles
    try {
      files = await readArchive(content)
    } catch (error) {
      throw badRequest(`invalid backup archive file: ${(error as Error).message}`)
    }
    const name = filename.slice(0, -BACKUP_SUFFIX.length)
    if ([...files.keys()].some((path) => path.split('/')[0] !== name)) throw contractError(BACKUP_ERRORS.badArchiveDir)
    const file = (path: string) => files.get(`${name}/${path}`)

    const metaText = file(META)
    const meta = metaText ? readMeta(metaText.toString('utf8')) : {}
    if (!meta.edition || !meta.version) throw contractError(BACKUP_ERRORS.missingMeta)
    if (meta.edition === 'ee') throw contractError(BACKUP_ERRORS.eeToCe)
    if (meta.edition !== 'ce') throw contractError(BACKUP_ERRORS.invalidEdition)
    checkVersion(meta.version)

    const backup: CheckedBackup = { tables: [], documents: [] }
    const confText = file(CLUSTER_HOCON)
    if (confText) this.checkConfig(confText, backup)
    for (const section of TABLE_SECTIONS) {
      const content = file(`mnesia/${section.file}`)
      if (!content) continue
      const rows = readRows(this.deps.db, section.table, content)
      if (typeof rows === 'string') throw badRequest(tableImportFailed(section.file, rows))
      backup.tables.push({ section, rows })
    }
    return backup
  }

  private checkConfig(text: Buffer, backup: CheckedBackup): void {
    let conf: unknown
    try {
      conf = JSON.parse(text.toString('utf8'))
    } catch (error) {
      // EMQX's own cluster.hocon is HOCON proper, which this server does not read.
      throw badRequest(`invalid backup archive content: ${CLUSTER_HOCON} is not JSON (the form of HOCON this server reads): ${(error as Error).message}`)
    }
    if (!conf || typeof conf !== 'object' || Array.isArray(conf)) throw badRequest(`invalid backup archive content: ${CLUSTER_HOCON} is not an object`)
    const root = conf as Record<string, unknown>
    const failed = (path: readonly string[], message: string) => badRequest(`Failed to import ${path.join('.')}: ${message}`)
    for (const document of this.deps.documents) {
      let stored = at(root, document.path)
      if (stored === undefined) continue
      // The authorization settings are the root without its sources (kept in their own table).
      if (document.path.join('.') === 'authorization' && stored && typeof stored === 'object') {
        const { sources: _sources, ...settings } = stored as Record<string, unknown>
        if (Object.keys(settings).length === 0) continue
        stored = settings
      }
      const result = v.safeParse(document.schema, stored)
      if (!result.success) throw failed(document.path, result.issues[0].message)
      backup.documents.push({ document, stored, value: result.output })
    }
    const chain = root.authentication
    if (chain !== undefined) {
      if (!Array.isArray(chain)) throw failed(['authentication'], 'must be a list of authenticators')
      backup.authentication = chain.map((config: unknown) => {
        try {
          const parsed = parseConfig(config)
          return { id: authenticatorId(parsed), config: parsed }
        } catch (error) {
          throw failed(['authentication'], error instanceof ApiError ? error.message : String(error))
        }
      })
    }
    const sources = at(root, ['authorization', 'sources'])
    if (sources !== undefined) {
      if (!Array.isArray(sources)) throw failed(['authorization', 'sources'], 'must be a list of sources')
      backup.authzSources = sources.map((source: unknown) => {
        try {
          return parseInput(AuthzSourceBody, source, 'source')
        } catch (error) {
          throw failed(['authorization', 'sources'], error instanceof ApiError ? error.message : String(error))
        }
      })
    }
  }

  /** Everything in one transaction: a failing row rolls back every table and document. */
  private write(backup: CheckedBackup): void {
    const { db } = this.deps
    db.transaction(() => {
      for (const { document, stored } of backup.documents) document.store.set(document.key, stored)
      if (backup.authentication) {
        // The imported authenticators first, in their order, then those the backup does not name.
        const imported = new Set(backup.authentication.map((entry) => entry.id))
        const kept = this.deps.authn.repository.listAuthenticators().filter((entry) => !imported.has(entry.id))
        db.sql.prepare('DELETE FROM authn_authenticators').run()
        const insert = db.sql.prepare('INSERT INTO authn_authenticators (id, position, config) VALUES (?, ?, ?)')
        ;[...backup.authentication, ...kept].forEach((entry, position) => insert.run(entry.id, position, JSON.stringify(entry.config)))
      }
      if (backup.authzSources) {
        const imported = new Set(backup.authzSources.map((source) => source.type))
        const kept = this.deps.authz.list().filter((source) => !imported.has(source.type))
        db.sql.prepare('DELETE FROM authz_sources').run()
        const insert = db.sql.prepare('INSERT INTO authz_sources (type, position, config) VALUES (?, ?, ?)')
        ;[...backup.authzSources, ...kept].forEach((source, position) => insert.run(source.type, position, JSON.stringify(source)))
      }
      for (const { section, rows } of backup.tables) {
        try {
          restoreRows(db, section.table, rows)
        } catch (error) {
          throw badRequest(tableImportFailed(section.file, (error as Error).message))
        }
      }
    })
  }

  private putInForce(backup: CheckedBackup): void {
    for (const { document, value } of backup.documents) document.apply(value)
    if (backup.authentication) this.deps.authn.reload()
    if (backup.authzSources || backup.tables.some(({ section }) => section.set === 'builtin_authz')) this.deps.authz.reload()
    this.deps.afterImport()
  }
}
