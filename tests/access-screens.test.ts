// The logic behind the Access Control screens: the expiry an API key's edit form starts with, the
// password form's errors, the flapping form's values, and the ban kinds banned.create takes.
import { describe, expect, it } from 'vitest'
import { validateArgs } from '../commands/args.ts'
import { createBan } from '../commands/banned.ts'
import { editableExpiry } from '../src/features/apiKeys/editableExpiry.ts'
import { flappingValues } from '../src/features/flapping/flappingValues.ts'
import { passwordFormErrors } from '../src/features/users/passwordErrors.ts'

const now = Date.parse('2026-11-25T12:00:00Z')

describe('the access control screens', () => {
  it("starts an API key's edit form at never, at its expiry while ahead, and empty once it has passed", () => {
    expect(editableExpiry({ expired_at: 'infinity' }, now)).toBe('never')
    expect(editableExpiry({ expired_at: null }, now)).toBe('never')
    expect(editableExpiry({ expired_at: '2027-01-01T00:00:00Z' }, now)).toBe('2027-01-01T00:00:00Z')
    expect(editableExpiry({ expired_at: '2026-11-25T11:59:59Z' }, now)).toBe('')
  })

  it("says the first password rule broken and whether the confirmation matches", () => {
    expect(passwordFormErrors({ field: 'new_pwd', password: 'short1', confirm: 'short1' })).toEqual([
      { field: 'new_pwd', key: 'password.length', values: { min: 8, max: 64 } },
    ])
    expect(passwordFormErrors({ field: 'new_pwd', password: 'onlyletters', confirm: '' })).toEqual([
      { field: 'new_pwd', key: 'password.mix' },
      { field: 'confirm_pwd', key: 'password.confirmRequired' },
    ])
    expect(passwordFormErrors({ field: 'new_pwd', password: 'samePass123', old: 'samePass123', confirm: 'samePass123' })).toEqual([
      { field: 'new_pwd', key: 'password.sameAsOld' },
    ])
    expect(passwordFormErrors({ field: 'password', password: 'goodPass123', confirm: 'goodPass124' })).toEqual([
      { field: 'confirm_pwd', key: 'password.mismatch' },
    ])
    expect(passwordFormErrors({ field: 'password', password: 'goodPass123', confirm: 'goodPass123' })).toEqual([])
  })

  it("fills the flapping form from the settings, durations given in milliseconds as such, EMQX's defaults where one is missing", () => {
    expect(flappingValues({ enable: true, window_time: '2m', max_count: 3, ban_time: 60000 })).toEqual({
      enable: 'true',
      window_time: '2m',
      max_count: '3',
      ban_time: '60000ms',
    })
    expect(flappingValues({})).toEqual({ enable: 'false', window_time: '1m', max_count: '15', ban_time: '5m' })
  })

  it("bans by EMQX 5.8's six kinds, and asks for the banned value", () => {
    for (const as of ['clientid', 'username', 'peerhost', 'clientid_re', 'username_re', 'peerhost_net'])
      expect(validateArgs(createBan, { as, who: 'x' }).ok, as).toBe(true)
    expect(validateArgs(createBan, { as: 'clientid', who: '' })).toMatchObject({ ok: false, errors: [{ field: 'who', key: 'err.bannedValue' }] })
    expect(validateArgs(createBan, { as: 'topic', who: 'x' }).ok).toBe(false)
  })
})
