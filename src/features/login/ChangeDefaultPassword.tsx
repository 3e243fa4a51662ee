// Changing a dashboard user's password: the skippable prompt after logging in with the default
// password, and the same form as a dialog from the user menu (which asks for the old password).
import { useStore } from 'jotai'
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../contract/api-error.ts'
import { useLoginApi } from '../../app/useLoginApi.ts'
import { rememberEdition, sessionAtom } from '../../state/session.ts'
import { notify } from '../../state/notifications.ts'
import { checkChangePassword, PASSWORD_MAX, PASSWORD_MIN, type ChangePasswordIssues } from './passwordRules.ts'

interface FormProps {
  username: string
  /** Known when the user has just logged in with it; the form then does not ask for it. */
  knownOldPassword?: string
  /** Called after the password changed and the session was renewed. */
  onChanged(): void
  /** Buttons beside submit: Skip after login, Cancel in the dialog. */
  secondary: ReactNode
  submitLabel: string
  autoFocus?: boolean
}

type FieldName = 'oldPassword' | 'newPassword' | 'confirmPassword'

function PasswordField(props: {
  name: FieldName
  label: string
  value: string
  error?: string
  hint?: string
  autoComplete: string
  autoFocus?: boolean
  onChange(value: string): void
}) {
  const id = useId()
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="input"
        type="password"
        name={props.name}
        value={props.value}
        autoComplete={props.autoComplete}
        autoFocus={props.autoFocus}
        maxLength={PASSWORD_MAX + 16}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : props.hint ? `${id}-hint` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.error ? (
        <span className="field-error" id={`${id}-error`} role="alert">
          {props.error}
        </span>
      ) : props.hint ? (
        <span className="field-hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      ) : null}
    </div>
  )
}

function ChangePasswordForm({ username, knownOldPassword, onChanged, secondary, submitLabel, autoFocus }: FormProps) {
  const { t } = useTranslation()
  const api = useLoginApi()
  const store = useStore()
  const [values, setValues] = useState({ oldPassword: '', newPassword: '', confirmPassword: '' })
  const [issues, setIssues] = useState<ChangePasswordIssues>({})
  const [oldRejected, setOldRejected] = useState(false)
  const [submitted, setSubmitted] = useState(false)
  const [busy, setBusy] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)

  const input = { ...values, oldPassword: knownOldPassword ?? values.oldPassword }

  function update(name: FieldName, value: string) {
    const next = { ...values, [name]: value }
    setValues(next)
    if (name === 'oldPassword') setOldRejected(false)
    setFormError(null)
    // After the first submit, errors follow the typing so the user sees when a rule is met.
    if (submitted) setIssues(checkChangePassword({ ...next, oldPassword: knownOldPassword ?? next.oldPassword }))
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    setSubmitted(true)
    const found = checkChangePassword(input)
    setIssues(found)
    if (Object.keys(found).length > 0 || busy) return
    setBusy(true)
    setFormError(null)
    try {
      await api.changePassword(username, { old_pwd: input.oldPassword, new_pwd: input.newPassword })
    } catch (error) {
      setBusy(false)
      if (error instanceof ApiError && error.status === 400 && !knownOldPassword) setOldRejected(true)
      else if (error instanceof ApiError && error.status === 0) setFormError(t('common.networkError'))
      else setFormError(error instanceof Error ? error.message : t('common.errorOccurred'))
      return
    }
    notify(store, { kind: 'success', text: { key: 'password.changed' } })
    // EMQX may end the user's tokens when the password changes: log in again with the new one.
    try {
      const login = await api.login({ username, password: input.newPassword })
      rememberEdition(login.license.edition)
      store.set(sessionAtom, { username, token: login.token })
    } catch {
      // The change itself succeeded; if the fresh login fails the next call's 401 leads to /login.
    }
    setBusy(false)
    onChanged()
  }

  const oldError = oldRejected ? t('password.oldWrong') : issues.oldPassword ? t(issues.oldPassword) : undefined
  return (
    <form className="stack password-form" onSubmit={submit} noValidate>
      {/* Browsers' password managers want the account name beside a new password. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      {knownOldPassword === undefined && (
        <PasswordField
          name="oldPassword"
          label={t('password.old')}
          value={values.oldPassword}
          error={oldError}
          autoComplete="current-password"
          autoFocus={autoFocus}
          onChange={(value) => update('oldPassword', value)}
        />
      )}
      <PasswordField
        name="newPassword"
        label={t('password.new')}
        value={values.newPassword}
        error={issues.newPassword ? t(issues.newPassword, { min: PASSWORD_MIN, max: PASSWORD_MAX }) : undefined}
        hint={t('password.rules', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
        autoComplete="new-password"
        autoFocus={autoFocus && knownOldPassword !== undefined}
        onChange={(value) => update('newPassword', value)}
      />
      <PasswordField
        name="confirmPassword"
        label={t('password.confirm')}
        value={values.confirmPassword}
        error={issues.confirmPassword ? t(issues.confirmPassword) : undefined}
        autoComplete="new-password"
        onChange={(value) => update('confirmPassword', value)}
      />
      {formError && (
        <div className="form-error" role="alert">
          {formError}
        </div>
      )}
      <div className="form-actions">
        {secondary}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t('common.loading') : submitLabel}
        </button>
      </div>
    </form>
  )
}

/** Shown on the login page after logging in as admin with the default password. */
export function ChangeDefaultPassword({
  username,
  oldPassword,
  onDone,
}: {
  username: string
  oldPassword: string
  onDone(): void
}) {
  const { t } = useTranslation()
  return (
    <div className="stack">
      <div>
        <h1 className="login-title">{t('password.defaultTitle')}</h1>
        <p className="login-subtitle">{t('password.defaultTip')}</p>
      </div>
      <ChangePasswordForm
        username={username}
        knownOldPassword={oldPassword}
        onChanged={onDone}
        submitLabel={t('password.submit')}
        autoFocus
        secondary={
          <button type="button" className="btn" onClick={onDone}>
            {t('password.skip')}
          </button>
        }
      />
    </div>
  )
}

/** The user menu's Change password, as a modal dialog. */
export function ChangePasswordDialog({ username, onClose }: { username: string; onClose(): void }) {
  const { t } = useTranslation()
  const titleId = useId()
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [onClose])
  return (
    <div
      className="dialog-backdrop"
      onPointerDown={(event) => {
        if (event.target === event.currentTarget) onClose()
      }}
    >
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <div className="dialog-header" id={titleId}>
          {t('password.change')}
          <div className="dialog-subtitle muted">{username}</div>
        </div>
        <div className="dialog-body">
          <ChangePasswordForm
            username={username}
            onChanged={onClose}
            submitLabel={t('password.submit')}
            autoFocus
            secondary={
              <button type="button" className="btn" onClick={onClose}>
                {t('common.cancel')}
              </button>
            }
          />
        </div>
      </div>
    </div>
  )
}
