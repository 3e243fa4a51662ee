// SPEC 5 password rules as pure functions: 8 to 64 printable ASCII characters mixing at least two
// of digits, letters and other symbols; the new password differs from the old; the confirmation
// matches. Results are i18n keys so the form and the tests read the same values.

export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 64

export type PasswordIssue =
  | 'password.required'
  | 'password.length'
  | 'password.ascii'
  | 'password.mix'
  | 'password.sameAsOld'

export type ConfirmIssue = 'password.confirmRequired' | 'password.mismatch'

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/** How many of the three kinds (digits, letters, other symbols) a password uses. */
export function characterKinds(password: string): number {
  let kinds = 0
  if (/[0-9]/.test(password)) kinds++
  if (/[A-Za-z]/.test(password)) kinds++
  if (/[^0-9A-Za-z]/.test(password)) kinds++
  return kinds
}

/** The first rule a new password breaks, or null when it is acceptable. */
export function checkNewPassword(password: string, oldPassword?: string): PasswordIssue | null {
  if (password === '') return 'password.required'
  if (!PRINTABLE_ASCII.test(password)) return 'password.ascii'
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return 'password.length'
  if (characterKinds(password) < 2) return 'password.mix'
  if (oldPassword !== undefined && oldPassword !== '' && password === oldPassword) return 'password.sameAsOld'
  return null
}

/** The confirmation must be given and equal the new password ('Two inputs don't match!'). */
export function checkConfirmPassword(password: string, confirm: string): ConfirmIssue | null {
  if (confirm === '') return 'password.confirmRequired'
  if (confirm !== password) return 'password.mismatch'
  return null
}

export interface ChangePasswordInput {
  oldPassword: string
  newPassword: string
  confirmPassword: string
}

export interface ChangePasswordIssues {
  oldPassword?: 'password.oldRequired'
  newPassword?: PasswordIssue
  confirmPassword?: ConfirmIssue
}

/** Every field's first problem; an empty object means the change can be sent. */
export function checkChangePassword(input: ChangePasswordInput): ChangePasswordIssues {
  const issues: ChangePasswordIssues = {}
  if (input.oldPassword === '') issues.oldPassword = 'password.oldRequired'
  const newIssue = checkNewPassword(input.newPassword, input.oldPassword)
  if (newIssue) issues.newPassword = newIssue
  const confirmIssue = checkConfirmPassword(input.newPassword, input.confirmPassword)
  if (confirmIssue) issues.confirmPassword = confirmIssue
  return issues
}

/** SPEC 5 flags these names as reserved when creating users. */
export const RESERVED_USERNAMES = ['admin', 'root', 'administrator'] as const

export function isReservedUsername(username: string): boolean {
  return (RESERVED_USERNAMES as readonly string[]).includes(username.trim().toLowerCase())
}
