// The box where a new password is typed again (user.create, user.changePassword).
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { FieldError } from '../../../commands/args.ts'
import { CONFIRM_FIELD } from './passwordErrors.ts'

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
