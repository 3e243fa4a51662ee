// Dashboard login tokens, kept server-side like EMQX's admin JWT table: a token is valid while its
// row exists and has not expired, so logout and password changes can revoke it.
import { randomBytes } from 'node:crypto'
import type { Database } from '../../store/db.ts'

export interface TokenRow {
  jti: string
  username: string
  expiresAt: number
}

export class TokenRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  /** The HS256 signing secret: created once, then read back on every start. */
  signingSecret(): Uint8Array {
    const row = this.db.statement("SELECT value FROM settings WHERE key = 'jwt_secret'").get() as { value: Uint8Array } | undefined
    if (row) return new Uint8Array(row.value)
    const secret = randomBytes(32)
    this.db.statement("INSERT OR IGNORE INTO settings (key, value) VALUES ('jwt_secret', ?)").run(secret)
    const stored = this.db.statement("SELECT value FROM settings WHERE key = 'jwt_secret'").get() as { value: Uint8Array }
    return new Uint8Array(stored.value)
  }

  add(row: TokenRow): void {
    this.db.statement('INSERT INTO dashboard_tokens (jti, username, expires_at) VALUES (?, ?, ?)').run(row.jti, row.username, row.expiresAt)
  }

  find(jti: string): TokenRow | undefined {
    const row = this.db.statement('SELECT jti, username, expires_at AS expiresAt FROM dashboard_tokens WHERE jti = ?').get(jti)
    return row ? { ...(row as unknown as TokenRow) } : undefined
  }

  extend(jti: string, expiresAt: number): void {
    this.db.statement('UPDATE dashboard_tokens SET expires_at = ? WHERE jti = ?').run(expiresAt, jti)
  }

  /** Revokes one token of one user; false when there was no such token for that user. */
  remove(jti: string, username: string): boolean {
    const result = this.db.statement('DELETE FROM dashboard_tokens WHERE jti = ? AND username = ?').run(jti, username)
    return Number(result.changes) === 1
  }

  removeByUsername(username: string): void {
    this.db.statement('DELETE FROM dashboard_tokens WHERE username = ?').run(username)
  }

  removeExpired(now = Date.now()): void {
    this.db.statement('DELETE FROM dashboard_tokens WHERE expires_at <= ?').run(now)
  }
}

export function newTokenId(): string {
  return randomBytes(16).toString('hex')
}
