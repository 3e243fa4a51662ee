// Password hashes of the built-in database, as EMQX's emqx_authn_password_hashing and emqx_passwd:
// simple hashes with a salt before or after the password, bcrypt (salt inside the hash) and PBKDF2,
// all written as lower-case hex; a check compares in constant time and ignores case.
import { bcryptCompare, bcryptHash } from './bcrypt-pool.ts'
import { createHash, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto'
import type { PasswordHash } from '../../../contract/authn.ts'

/** Node's digest name of each EMQX hash name (`sha` is SHA-1). */
const DIGESTS: Record<string, string> = { md5: 'md5', sha: 'sha1', sha224: 'sha224', sha256: 'sha256', sha384: 'sha384', sha512: 'sha512' }

/** PBKDF2's derived key length when `dk_length` is absent: the MAC's output size, as EMQX. */
const PBKDF2_DK_LENGTH: Record<string, number> = { sha: 20, sha224: 28, sha256: 32, sha384: 48, sha512: 64 }

export interface HashedPassword {
  passwordHash: string
  salt: string
}

/** EMQX's random salt: 16 random bytes as 32 hex digits (none for plain; bcrypt's is in the hash). */
function newSalt(): string {
  return randomBytes(16).toString('hex')
}

function simpleHash(name: string, salted: Buffer): string {
  return name === 'plain' ? salted.toString('utf8') : createHash(DIGESTS[name]).update(salted).digest('hex')
}

function salted(password: string, salt: string, position: 'disable' | 'prefix' | 'suffix'): Buffer {
  if (position === 'prefix') return Buffer.from(salt + password, 'utf8')
  if (position === 'suffix') return Buffer.from(password + salt, 'utf8')
  return Buffer.from(password, 'utf8')
}

function derive(algorithm: Extract<PasswordHash, { name: 'pbkdf2' }>, password: string, salt: string): Promise<string> {
  const length = algorithm.dk_length ?? PBKDF2_DK_LENGTH[algorithm.mac_fun]
  return new Promise((resolve, reject) =>
    pbkdf2(password, salt, algorithm.iterations, length, DIGESTS[algorithm.mac_fun], (error, key) => (error ? reject(error) : resolve(key.toString('hex')))),
  )
}

/** Hashes a new password with a fresh salt. */
export async function hashPassword(algorithm: PasswordHash, password: string): Promise<HashedPassword> {
  switch (algorithm.name) {
    case 'bcrypt': {
      const hash = await bcryptHash(password, algorithm.salt_rounds)
      // EMQX keeps bcrypt's salt as the whole hash.
      return { passwordHash: hash, salt: hash }
    }
    case 'pbkdf2': {
      const salt = newSalt()
      return { passwordHash: await derive(algorithm, password, salt), salt }
    }
    default: {
      const salt = algorithm.name === 'plain' || algorithm.salt_position === 'disable' ? '' : newSalt()
      return { passwordHash: simpleHash(algorithm.name, salted(password, salt, algorithm.salt_position)), salt }
    }
  }
}

function sameCaseless(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase(), 'utf8')
  const y = Buffer.from(b.toLowerCase(), 'utf8')
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * Whether `password` matches the stored hash. Simple hashes answer at once; bcrypt and PBKDF2, which
 * are slow on purpose, answer later so the broker keeps serving other clients meanwhile.
 */
export function checkPassword(algorithm: PasswordHash, salt: string, passwordHash: string, password: string): boolean | Promise<boolean> {
  switch (algorithm.name) {
    case 'bcrypt':
      return bcryptCompare(password, passwordHash).catch(() => false)
    case 'pbkdf2':
      return derive(algorithm, password, salt).then((hash) => sameCaseless(hash, passwordHash), () => false)
    default:
      return sameCaseless(simpleHash(algorithm.name, salted(password, salt, algorithm.salt_position)), passwordHash)
  }
}
