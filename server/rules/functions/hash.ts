// Hashes: lowercase hex digests (emqx_variform_bif:hash).
import { createHash } from 'node:crypto'
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { RuleFunctionError, bytes, text } from './values.ts'

// Erlang crypto's hash names as Node's OpenSSL knows them.
const ALGORITHMS: Readonly<Record<string, string>> = {
  md4: 'md4',
  md5: 'md5',
  sha: 'sha1',
  sha1: 'sha1',
  sha224: 'sha224',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
  sha3_224: 'sha3-224',
  sha3_256: 'sha3-256',
  sha3_384: 'sha3-384',
  sha3_512: 'sha3-512',
  blake2b: 'blake2b512',
  blake2s: 'blake2s256',
  ripemd160: 'ripemd160',
  sm3: 'sm3',
}

export function hash(algorithm: unknown, data: unknown): string {
  const name = ALGORITHMS[text('hash', algorithm)]
  if (!name) {
    throw new RuleFunctionError('unknown_hash_algorithm', `unknown_hash_algorithm: ${text('hash', algorithm)}`)
  }
  return createHash(name).update(bytes('hash', data)).digest('hex')
}

export const hashFunctions: RuleFunctionGroup = {
  md5: ruleFn([1], (s) => hash('md5', s)),
  sha: ruleFn([1], (s) => hash('sha', s)),
  sha256: ruleFn([1], (s) => hash('sha256', s)),
  hash: ruleFn([2], hash),
}
