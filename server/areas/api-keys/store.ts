// API keys as EMQX keeps them (emqx_mgmt_auth): a unique name, a public key derived from it, and a
// secret that is returned once at creation and stored only as a salted scrypt hash.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Database } from '../../store/db.ts'
import { saltedHash, verifySaltedHash } from '../../store/secret-hash.ts'
import { MAX_API_KEYS } from '../../../contract/api-keys.ts'

export interface ApiKey {
  name: string
  apiKey: string
  enable: boolean
  desc: string
  /** Epoch seconds; undefined: never expires (EMQX's `infinity`). */
  expiredAt?: number
  /** Epoch seconds. */
  createdAt: number
}

export interface NewApiKey {
  name: string
  enable: boolean
  desc: string
  expiredAt?: number
}

export interface ApiKeyChange {
  enable?: boolean
  desc?: string
  /** Replaces the expiry; undefined means never, as EMQX's PUT without `expired_at`. */
  expiredAt: number | undefined
}

/** EMQX refuses to create more than this many keys. */
export { MAX_API_KEYS }

interface Row {
  name: string
  api_key: string
  enable: number
  description: string
  expired_at: number | null
  created_at: number
}

interface SecretRow {
  name: string
  enable: number
  expired_at: number | null
  secret_salt: Uint8Array
  secret_hash: Uint8Array
}

const COLUMNS = 'name, api_key, enable, description, expired_at, created_at'

function toKey(row: Row): ApiKey {
  const key: ApiKey = {
    name: row.name,
    apiKey: row.api_key,
    enable: row.enable === 1,
    desc: row.description,
    createdAt: row.created_at,
  }
  if (row.expired_at !== null) key.expiredAt = row.expired_at
  return key
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000)
}

/** EMQX's rule: a key past its `expired_at` second no longer authenticates. */
export function isExpired(expiredAt: number | undefined, now = nowSeconds()): boolean {
  return expiredAt !== undefined && expiredAt < now
}

/** As EMQX: the public key is the first 16 hex digits of the name's SHA-512. */
export function apiKeyFor(name: string): string {
  return createHash('sha512').update(name).digest('hex').slice(0, 16)
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** As EMQX: 32 random bytes written in base 62. */
export function newApiSecret(): string {
  let n = BigInt(`0x${randomBytes(32).toString('hex')}`)
  let out = ''
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out
    n /= 62n
  }
  return out || '0'
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

export type CreateResult = { ok: true; key: ApiKey; secret: string } | { ok: false; reason: 'exists' | 'full' }

export class ApiKeyRepository {
  private readonly db: Database
  /**
   * Secrets already checked against their scrypt hash, as SHA-256 digests by public key, so an API
   * client does not pay ~40 ms of scrypt on every request. Only a deleted or recreated key changes
   * its secret; both drop the entry. Enable and expiry are read from the table on every request.
   */
  private readonly verified = new Map<string, Buffer>()

  constructor(db: Database) {
    this.db = db
  }

  list(): ApiKey[] {
    const rows = this.db.statement(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, name`).all() as unknown as Row[]
    return rows.map(toKey)
  }

  find(name: string): ApiKey | undefined {
    const row = this.db.statement(`SELECT ${COLUMNS} FROM api_keys WHERE name = ?`).get(name) as Row | undefined
    return row ? toKey(row) : undefined
  }

  /** Creates the key with a new secret; the secret is in the answer and nowhere else. */
  async create(input: NewApiKey): Promise<CreateResult> {
    const secret = newApiSecret()
    const hashed = await saltedHash(secret)
    const apiKey = apiKeyFor(input.name)
    const createdAt = nowSeconds()
    return this.db.transaction((): CreateResult => {
      if (this.db.statement('SELECT 1 FROM api_keys WHERE name = ? OR api_key = ?').get(input.name, apiKey)) return { ok: false, reason: 'exists' }
      const { count } = this.db.statement('SELECT COUNT(*) AS count FROM api_keys').get() as { count: number }
      if (count >= MAX_API_KEYS) return { ok: false, reason: 'full' }
      this.db
        .statement(
          'INSERT INTO api_keys (name, api_key, secret_salt, secret_hash, enable, description, expired_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(input.name, apiKey, hashed.salt, hashed.hash, input.enable ? 1 : 0, input.desc, input.expiredAt ?? null, createdAt)
      this.verified.delete(apiKey)
      const key: ApiKey = { name: input.name, apiKey, enable: input.enable, desc: input.desc, createdAt }
      if (input.expiredAt !== undefined) key.expiredAt = input.expiredAt
      return { ok: true, key, secret }
    })
  }

  /** Applies a change; undefined when there is no such key. */
  update(name: string, change: ApiKeyChange): ApiKey | undefined {
    const current = this.find(name)
    if (!current) return undefined
    this.db
      .statement('UPDATE api_keys SET enable = ?, description = ?, expired_at = ? WHERE name = ?')
      .run((change.enable ?? current.enable) ? 1 : 0, change.desc ?? current.desc, change.expiredAt ?? null, name)
    return this.find(name)
  }

  /** Forgets every checked secret: a data import may have replaced the keys' secrets. */
  forgetVerified(): void {
    this.verified.clear()
  }

  /** False when there was no such key. */
  delete(name: string): boolean {
    const current = this.find(name)
    if (!current) return false
    this.db.statement('DELETE FROM api_keys WHERE name = ?').run(name)
    this.verified.delete(current.apiKey)
    return true
  }

  /**
   * The key's name when `apiKey` and `secret` belong to an enabled, unexpired key; undefined
   * otherwise, taking as long for an unknown key as for a wrong secret.
   */
  readonly verify = async (apiKey: string, secret: string): Promise<string | undefined> => {
    const read = () =>
      this.db.statement('SELECT name, enable, expired_at, secret_salt, secret_hash FROM api_keys WHERE api_key = ?').get(apiKey) as
        | SecretRow
        | undefined
    const row = read()
    const digest = sha256(secret)
    const known = row ? this.verified.get(apiKey) : undefined
    if (!(known && timingSafeEqual(known, digest))) {
      if (!(await verifySaltedHash(secret, row ? { salt: row.secret_salt, hash: row.secret_hash } : undefined))) return undefined
      // The key may have been deleted or recreated while scrypt ran: only a secret that still holds counts.
      const again = read()
      if (!row || !again || !Buffer.from(again.secret_hash).equals(Buffer.from(row.secret_hash))) return undefined
      this.verified.set(apiKey, digest)
      if (again.enable !== 1 || isExpired(again.expired_at ?? undefined)) return undefined
      return again.name
    }
    if (row!.enable !== 1 || isExpired(row!.expired_at ?? undefined)) return undefined
    return row!.name
  }
}
