// Hash rule functions: lowercase hex digests as EMQX 5.8.9 gives them.
import { describe, expect, it } from 'vitest'
import { callRuleFunction } from '../server/rules/functions/index.ts'

const call = (name: string, ...args: unknown[]) => callRuleFunction(name, args)

describe('rule functions: hash', () => {
  it('md5, sha, sha256 and hash/2', () => {
    expect(call('md5', 'abc')).toBe('900150983cd24fb0d6963f7d28e17f72')
    expect(call('sha', 'abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d')
    expect(call('sha256', 'abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(call('sha256', Buffer.from('abc'))).toBe(call('sha256', 'abc'))
    expect(call('hash', 'sha1', 'abc')).toBe(call('sha', 'abc'))
    expect(call('hash', 'sha512', '')).toMatch(/^cf83e135/)
    expect(call('hash', 'sha3_256', '')).toBe('a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a')
    expect(() => call('hash', 'nope', 'abc')).toThrow(/unknown_hash_algorithm/)
    expect(() => call('md5', 1)).toThrow(/badarg/)
  })
})
