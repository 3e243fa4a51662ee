import { describe, expect, it } from 'vitest'
import {
  characterKinds,
  checkChangePassword,
  checkConfirmPassword,
  checkNewPassword,
  isReservedUsername,
} from '../src/features/login/passwordRules.ts'

describe('new password rules', () => {
  it('accepts 8 to 64 printable ASCII characters mixing two kinds', () => {
    expect(checkNewPassword('abcd1234')).toBeNull()
    expect(checkNewPassword('abcdefg!')).toBeNull()
    expect(checkNewPassword('1234567!')).toBeNull()
    expect(checkNewPassword(`a1${'x'.repeat(62)}`)).toBeNull()
  })

  it('requires a value', () => {
    expect(checkNewPassword('')).toBe('password.required')
  })

  it('rejects fewer than 8 or more than 64 characters', () => {
    expect(checkNewPassword('abc123!')).toBe('password.length')
    expect(checkNewPassword(`a1${'x'.repeat(63)}`)).toBe('password.length')
  })

  it('rejects characters outside printable ASCII', () => {
    expect(checkNewPassword('pässwort123')).toBe('password.ascii')
    expect(checkNewPassword('密码密码abc12345')).toBe('password.ascii')
    expect(checkNewPassword('abc\t12345')).toBe('password.ascii')
  })

  it('rejects a password made of one kind only', () => {
    expect(checkNewPassword('abcdefgh')).toBe('password.mix')
    expect(checkNewPassword('12345678')).toBe('password.mix')
    expect(checkNewPassword('!@#$%^&*')).toBe('password.mix')
    expect(checkNewPassword('ABCDefgh')).toBe('password.mix')
  })

  it('counts digits, letters and other symbols as the three kinds', () => {
    expect(characterKinds('abc')).toBe(1)
    expect(characterKinds('abc1')).toBe(2)
    expect(characterKinds('abc1 ')).toBe(3)
  })

  it('rejects a new password equal to the old one', () => {
    expect(checkNewPassword('public123', 'public123')).toBe('password.sameAsOld')
    expect(checkNewPassword('public123', 'public')).toBeNull()
  })
})

describe('password confirmation', () => {
  it('must be given', () => {
    expect(checkConfirmPassword('abcd1234', '')).toBe('password.confirmRequired')
  })

  it("says 'Two inputs don't match!' when it differs", () => {
    expect(checkConfirmPassword('abcd1234', 'abcd1235')).toBe('password.mismatch')
    expect(checkConfirmPassword('abcd1234', 'abcd1234')).toBeNull()
  })
})

describe('the change-password form', () => {
  it('reports every field at once', () => {
    expect(checkChangePassword({ oldPassword: '', newPassword: 'short', confirmPassword: 'other' })).toEqual({
      oldPassword: 'password.oldRequired',
      newPassword: 'password.length',
      confirmPassword: 'password.mismatch',
    })
  })

  it('is clean when all rules hold', () => {
    expect(checkChangePassword({ oldPassword: 'public', newPassword: 'n3w-Secret', confirmPassword: 'n3w-Secret' })).toEqual({})
  })
})

describe('reserved usernames', () => {
  it('flags admin, root and administrator', () => {
    expect(isReservedUsername('admin')).toBe(true)
    expect(isReservedUsername('Root')).toBe(true)
    expect(isReservedUsername('administrator')).toBe(true)
    expect(isReservedUsername('operator')).toBe(false)
  })
})
