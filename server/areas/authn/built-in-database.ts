// password_based + built_in_database (EMQX's emqx_authn_mnesia): users kept in SQLite, identified by
// username or client id, their passwords checked with the configured hash. An unknown user is
// `ignore` (the next authenticator decides), a wrong password `bad_username_or_password`.
import type { BuiltInDatabaseConfig, ImportResult, ImportType, User, UserCreate, UserUpdate } from '../../../contract/authn.ts'
import { ApiError } from '../../../contract/api-error.ts'
import type { MaybePromise } from '../../broker/hooks.ts'
import { checkPassword, hashPassword, type HashedPassword } from './password-hash.ts'
import { BAD_PASSWORD, IGNORE, type Credential, type Provider, type ProviderAnswer } from './provider.ts'
import type { AuthnRepository, UserRecord } from './store.ts'

/** EMQX's `User error: <reason>` answers of the users endpoints. */
export function userError(reason: string): ApiError {
  return new ApiError(400, 'BAD_REQUEST', `User error: ${reason}`)
}

export const userNotFound = () => new ApiError(404, 'NOT_FOUND', 'User not found')

/** One user to import, after reading the file: either a password to hash or a hash as stored. */
export type ImportedUser = { userId: string; isSuperuser: boolean } & ({ password: string } | { passwordHash: string; salt: string })

export function userAnswer(user: UserRecord): User {
  return { user_id: user.userId, is_superuser: user.isSuperuser }
}

/**
 * The users of an authenticator that keeps them (built-in database, SCRAM): added, changed, listed
 * and removed through /authentication/{id}/users; each kind hashes a password its own way.
 */
export abstract class UserDatabase implements Provider {
  protected readonly id: string
  protected readonly repository: AuthnRepository

  constructor(id: string, repository: AuthnRepository) {
    this.id = id
    this.repository = repository
  }

  abstract authenticate(credential: Credential): MaybePromise<ProviderAnswer>

  /** What is stored for a password: a hash (or SCRAM's keys) and a fresh salt. */
  protected abstract hash(password: string): Promise<HashedPassword>

  async addUser(input: UserCreate): Promise<User> {
    if (this.repository.findUser(this.id, input.user_id)) throw new ApiError(409, 'ALREADY_EXISTS', 'User already exists')
    const hashed = await this.hash(input.password)
    const user: UserRecord = { userId: input.user_id, ...hashed, isSuperuser: input.is_superuser }
    // Hashing may have waited: the same user may have been added meanwhile.
    if (this.repository.findUser(this.id, input.user_id)) throw new ApiError(409, 'ALREADY_EXISTS', 'User already exists')
    this.repository.putUser(this.id, user)
    return userAnswer(user)
  }

  async updateUser(userId: string, update: UserUpdate): Promise<User> {
    if (!this.repository.findUser(this.id, userId)) throw userNotFound()
    const hashed = update.password === undefined ? undefined : await this.hash(update.password)
    const current = this.repository.findUser(this.id, userId)
    if (!current) throw userNotFound()
    const user: UserRecord = { ...current, ...hashed, ...(update.is_superuser === undefined ? {} : { isSuperuser: update.is_superuser }) }
    this.repository.putUser(this.id, user)
    return userAnswer(user)
  }

  getUser(userId: string): User {
    const user = this.repository.findUser(this.id, userId)
    if (!user) throw userNotFound()
    return userAnswer(user)
  }

  deleteUser(userId: string): void {
    if (!this.repository.deleteUser(this.id, userId)) throw userNotFound()
  }

  listUsers(filter: { likeUserId?: string; isSuperuser?: boolean }): User[] {
    return this.repository
      .listUsers(this.id)
      .filter((user) => (filter.likeUserId === undefined || user.userId.includes(filter.likeUserId)) && (filter.isSuperuser === undefined || user.isSuperuser === filter.isSuperuser))
      .map(userAnswer)
  }
}

export class BuiltInDatabase extends UserDatabase {
  private readonly config: BuiltInDatabaseConfig

  constructor(id: string, config: BuiltInDatabaseConfig, repository: AuthnRepository) {
    super(id, repository)
    this.config = config
  }

  authenticate(credential: Credential): MaybePromise<ProviderAnswer> {
    if (credential.authMethod !== undefined) return IGNORE
    if (credential.password === undefined) return BAD_PASSWORD
    const userId = this.config.user_id_type === 'clientid' ? credential.clientid : credential.username
    if (userId === undefined) return IGNORE
    const user = this.repository.findUser(this.id, userId)
    if (!user) return IGNORE
    const answer = (matches: boolean): ProviderAnswer => (matches ? { result: 'ok', isSuperuser: user.isSuperuser } : BAD_PASSWORD)
    const matches = checkPassword(this.config.password_hash_algorithm, user.salt, user.passwordHash, credential.password)
    return typeof matches === 'boolean' ? answer(matches) : matches.then(answer)
  }

  protected hash(password: string): Promise<HashedPassword> {
    return hashPassword(this.config.password_hash_algorithm, password)
  }

  /**
   * Imports users as EMQX's API does: a new user is `success`, one stored with the same hash, salt
   * and flag `skipped`, one stored differently `override` (replaced). A plain password is hashed
   * with a fresh salt, so importing it again overrides.
   */
  async importUsers(users: readonly ImportedUser[], _type: ImportType): Promise<ImportResult> {
    if (users.length === 0) throw new ApiError(400, 'BAD_REQUEST', 'empty_users')
    const records: UserRecord[] = []
    for (const user of users) {
      const hashed = 'password' in user ? await this.hash(user.password) : { passwordHash: user.passwordHash, salt: user.salt }
      records.push({ userId: user.userId, ...hashed, isSuperuser: user.isSuperuser })
    }
    const result: ImportResult = { total: records.length, success: 0, override: 0, skipped: 0, failed: 0 }
    this.repository.transaction(() => {
      for (const record of records) {
        const existing = this.repository.findUser(this.id, record.userId)
        if (existing && existing.passwordHash === record.passwordHash && existing.salt === record.salt && existing.isSuperuser === record.isSuperuser) {
          result.skipped++
          continue
        }
        this.repository.putUser(this.id, record)
        if (existing) result.override++
        else result.success++
      }
    })
    return result
  }
}
