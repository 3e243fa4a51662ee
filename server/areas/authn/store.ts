// The authentication chain's configs in order, and the users of the built-in database (EMQX's
// `emqx_authn_mnesia` table: user id, password hash, salt, superuser flag), kept across restarts.
import type { Database } from '../../store/db.ts'

export interface StoredAuthenticator {
  id: string
  /** The config as JSON (defaults filled in, secrets in clear). */
  config: unknown
}

export interface UserRecord {
  userId: string
  passwordHash: string
  salt: string
  isSuperuser: boolean
}

interface UserRow {
  user_id: string
  password_hash: string
  salt: string
  is_superuser: number
}

const fromRow = (row: UserRow): UserRecord => ({ userId: row.user_id, passwordHash: row.password_hash, salt: row.salt, isSuperuser: row.is_superuser === 1 })

export class AuthnRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  /** The chain, in order; a config that is no longer JSON is left out. */
  listAuthenticators(): StoredAuthenticator[] {
    const rows = this.db.statement('SELECT id, config FROM authn_authenticators ORDER BY position').all() as Array<{ id: string; config: string }>
    return rows.flatMap((row) => {
      try {
        return [{ id: row.id, config: JSON.parse(row.config) as unknown }]
      } catch {
        return []
      }
    })
  }

  /** Writes the whole chain: its order and every config. */
  saveChain(chain: readonly StoredAuthenticator[]): void {
    this.db.transaction(() => {
      this.db.statement('DELETE FROM authn_authenticators').run()
      const insert = this.db.statement('INSERT INTO authn_authenticators (id, position, config) VALUES (?, ?, ?)')
      chain.forEach((entry, position) => insert.run(entry.id, position, JSON.stringify(entry.config)))
    })
  }

  findUser(authenticator: string, userId: string): UserRecord | undefined {
    const row = this.db
      .statement('SELECT user_id, password_hash, salt, is_superuser FROM authn_users WHERE authenticator = ? AND user_id = ?')
      .get(authenticator, userId)
    return row ? fromRow(row as unknown as UserRow) : undefined
  }

  /** The users in the order they were added. */
  listUsers(authenticator: string): UserRecord[] {
    const rows = this.db.statement('SELECT user_id, password_hash, salt, is_superuser FROM authn_users WHERE authenticator = ? ORDER BY rowid').all(authenticator)
    return rows.map((row) => fromRow(row as unknown as UserRow))
  }

  putUser(authenticator: string, user: UserRecord): void {
    this.db
      .statement(
        'INSERT INTO authn_users (authenticator, user_id, password_hash, salt, is_superuser) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT (authenticator, user_id) DO UPDATE SET password_hash = excluded.password_hash, salt = excluded.salt, is_superuser = excluded.is_superuser',
      )
      .run(authenticator, user.userId, user.passwordHash, user.salt, user.isSuperuser ? 1 : 0)
  }

  deleteUser(authenticator: string, userId: string): boolean {
    return Number(this.db.statement('DELETE FROM authn_users WHERE authenticator = ? AND user_id = ?').run(authenticator, userId).changes) > 0
  }

  /** Removes every user of an authenticator (when it is deleted, as EMQX destroys its user group). */
  clearUsers(authenticator: string): void {
    this.db.statement('DELETE FROM authn_users WHERE authenticator = ?').run(authenticator)
  }

  /** Runs `work` atomically. */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)
  }
}
