// Salted scrypt hashes for what the server must check but never keep: dashboard passwords and
// API key secrets.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

const KEY_LENGTH = 64

export interface SaltedHash {
  salt: Buffer
  hash: Buffer
}

export function scryptHash(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

/** Hashes `secret` with a fresh random salt. */
export async function saltedHash(secret: string): Promise<SaltedHash> {
  const salt = randomBytes(16)
  return { salt, hash: await scryptHash(secret, salt) }
}

/** True when `secret` hashes to `stored` under `salt`; without a stored hash it still spends the time. */
export async function verifySaltedHash(secret: string, stored: { salt: Uint8Array; hash: Uint8Array } | undefined): Promise<boolean> {
  if (!stored) {
    await scryptHash(secret, randomBytes(16))
    return false
  }
  const candidate = await scryptHash(secret, Buffer.from(stored.salt))
  const expected = Buffer.from(stored.hash)
  return candidate.length === expected.length && timingSafeEqual(candidate, expected)
}
