// A new password typed twice in a command's dialog (user.create, user.changePassword): the second
// box, and SPEC 5's rules checked before the command runs.
import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { FieldError } from '../../../commands/args.ts'
import type { FormValues } from '../../ui/SchemaForm.tsx'
import { CONFIRM_FIELD, passwordFormErrors } from './passwordErrors.ts'

/** CommandDialog's props for a command whose `field` is a new password (and `oldField` the old one); `note` goes under the boxes. */
export function confirmedPassword({ field, oldField, note }: { field: string; oldField?: string; note?(values: FormValues): ReactNode }) {
  return {
    formOnly: [CONFIRM_FIELD],
    check: (values: FormValues) =>
      passwordFormErrors({ field, password: values[field] ?? '', old: oldField ? (values[oldField] ?? '') : undefined, confirm: values[CONFIRM_FIELD] ?? '' }),
    extra: (values: FormValues, errors: FieldError[], onChange: (name: string, value: string) => void) => (
      <>
        <ConfirmPasswordField value={values[CONFIRM_FIELD] ?? ''} errors={errors} onChange={(value) => onChange(CONFIRM_FIELD, value)} />
        {note?.(values)}
      </>
    ),
  }
}

export function ConfirmPasswordField({ value, errors, onChange }: { value: string; errors: readonly FieldError[]; onChange(value: string): void }) {
  const { t } = useTranslation()
  const id = useId()
  const error = errors.find((e) => e.field === CONFIRM_FIELD)
  return (
    <div className="field schema-field">
      <label className="field-label" htmlFor={id}>
        {t('password.confirm')}
      </label>
      <input
        id={id}
        className="input"
        type="password"
        autoComplete="new-password"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {t(error.key, error.values ?? {})}
        </span>
      ) : null}
    </div>
  )
}
