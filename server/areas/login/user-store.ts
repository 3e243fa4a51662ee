// Dashboard users: who may log in to the console, with salted scrypt password hashes.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { Database } from '../../store/db.ts'
import { scryptHash as hash } from '../../store/secret-hash.ts'

export interface DashboardUser {
  username: string
  description: string
  role: string
}

const DEFAULT_USER = { username: 'admin', password: 'public', description: 'administrator', role: 'administrator' }
/** The user created on first start (EMQX `dashboard.default_username`); it cannot be deleted. */
export const DEFAULT_USERNAME = DEFAULT_USER.username

interface UserRow {
  username: string
  description: string
  role: string
  pwd_salt: Uint8Array
  pwd_hash: Uint8Array
}

export class UserRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  /** Creates `admin` / `public` when no user exists yet (first start). */
  async ensureDefaultUser(): Promise<void> {
    const { count } = this.db.statement('SELECT COUNT(*) AS count FROM dashboard_users').get() as { count: number }
    if (count > 0) return
    const salt = randomBytes(16)
    const pwdHash = await hash(DEFAULT_USER.password, salt)
    this.db
      .statement('INSERT OR IGNORE INTO dashboard_users (username, pwd_salt, pwd_hash, description, role, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(DEFAULT_USER.username, salt, pwdHash, DEFAULT_USER.description, DEFAULT_USER.role, Date.now())
  }

  list(): DashboardUser[] {
    const rows = this.db.statement('SELECT username, description, role FROM dashboard_users ORDER BY created_at, username').all()
    return rows.map((row) => ({ ...(row as unknown as DashboardUser) }))
  }

  find(username: string): DashboardUser | undefined {
    const row = this.db.statement('SELECT username, description, role FROM dashboard_users WHERE username = ?').get(username)
    return row ? { ...(row as unknown as DashboardUser) } : undefined
  }

  /** The user, when the password is theirs; takes as long for an unknown user as for a wrong password. */
  async authenticate(username: string, password: string): Promise<DashboardUser | undefined> {
    const row = this.db
      .statement('SELECT username, description, role, pwd_salt, pwd_hash FROM dashboard_users WHERE username = ?')
      .get(username) as UserRow | undefined
    if (!row) {
      await hash(password, randomBytes(16))
      return undefined
    }
    const candidate = await hash(password, Buffer.from(row.pwd_salt))
    const stored = Buffer.from(row.pwd_hash)
    if (candidate.length !== stored.length || !timingSafeEqual(candidate, stored)) return undefined
    return { username: row.username, description: row.description, role: row.role }
  }

  /** Hashes a new password. Separate from the write so the write can join a synchronous transaction. */
  async hashPassword(password: string): Promise<{ salt: Buffer; hash: Buffer }> {
    const salt = randomBytes(16)
    return { salt, hash: await hash(password, salt) }
  }

  /** Stores a hash made by `hashPassword`; returns false when the user does not exist. */
  setPasswordHash(username: string, password: { salt: Buffer; hash: Buffer }): boolean {
    const result = this.db
      .statement('UPDATE dashboard_users SET pwd_salt = ?, pwd_hash = ? WHERE username = ?')
      .run(password.salt, password.hash, username)
    return Number(result.changes) === 1
  }

  /** Adds a user with a hash made by `hashPassword`; false when the name is taken. */
  create(user: DashboardUser, password: { salt: Buffer; hash: Buffer }): boolean {
    const result = this.db
      .statement('INSERT OR IGNORE INTO dashboard_users (username, pwd_salt, pwd_hash, description, role, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(user.username, password.salt, password.hash, user.description, user.role, Date.now())
    return Number(result.changes) === 1
  }

  /** Changes a user's description and role; false when there is no such user. */
  update(username: string, change: { description: string; role: string }): boolean {
    const result = this.db.statement('UPDATE dashboard_users SET description = ?, role = ? WHERE username = ?').run(change.description, change.role, username)
    return Number(result.changes) === 1
  }

  /** False when there is no such user. */
  remove(username: string): boolean {
    return Number(this.db.statement('DELETE FROM dashboard_users WHERE username = ?').run(username).changes) === 1
  }
}
