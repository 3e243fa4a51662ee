// The password rules of SPEC 5 (login/passwordRules.ts) as a form's field errors: checked before
// user.create or user.changePassword runs, with the new password typed twice.
import type { FieldError } from '../../../commands/args.ts'
import { checkConfirmPassword, checkNewPassword, PASSWORD_MAX, PASSWORD_MIN } from '../login/passwordRules.ts'

export const CONFIRM_FIELD = 'confirm_pwd'

/** The new password's first problem (under `field`) and the confirmation's, as field errors. */
export function passwordFormErrors(input: { field: string; password: string; old?: string; confirm: string }): FieldError[] {
  const errors: FieldError[] = []
  const issue = checkNewPassword(input.password, input.old)
  if (issue) errors.push({ field: input.field, key: issue, ...(issue === 'password.length' ? { values: { min: PASSWORD_MIN, max: PASSWORD_MAX } } : {}) })
  const confirm = checkConfirmPassword(input.password, input.confirm)
  if (confirm) errors.push({ field: CONFIRM_FIELD, key: confirm })
  return errors
}
