// /login: username and password, a forgotten-password tip, a language switch, and after logging in
// with the default password the skippable prompt to change it.
import { useRouter, useSearch } from '@tanstack/react-router'
import { useAtomValue, useStore } from 'jotai'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../contract/api-error.ts'
import { Icon, Logo } from '../../app/layout/icons.tsx'
import { useLoginApi } from '../../app/useLoginApi.ts'
import { safeRedirectTarget } from '../../routes/redirectTarget.ts'
import { rememberEdition, sessionAtom } from '../../state/session.ts'
import { saveSetting, settingsAtom, type Lang } from '../../state/settings.ts'
import { ChangeDefaultPassword } from './ChangeDefaultPassword.tsx'

const DEFAULT_USERNAME = 'admin'
const DEFAULT_PASSWORD = 'public'

type Field = 'username' | 'password'

function loginErrorKey(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'LOGIN_LOCKED') return 'login.locked'
    if (error.status === 429) return 'login.addressLimited'
    if (error.status === 401 || error.code === 'BAD_USERNAME_OR_PWD') return 'login.badCredentials'
    // No answer, or a proxy in front of the API with nothing behind it.
    if (error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504)
      return 'common.networkError'
  }
  return 'common.errorOccurred'
}

function LanguageSwitch() {
  const { t } = useTranslation()
  const { lang } = useAtomValue(settingsAtom)
  const options: { value: Lang; label: string }[] = [
    { value: 'en', label: 'English' },
    { value: 'zh', label: '中文' },
  ]
  return (
    <div className="segmented" role="group" aria-label={t('settings.language')}>
      <Icon name="globe" size={15} className="muted" />
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          lang={option.value === 'zh' ? 'zh-CN' : 'en'}
          className={`segmented-item${lang === option.value ? ' is-selected' : ''}`}
          aria-pressed={lang === option.value}
          onClick={() => lang !== option.value && saveSetting('lang', option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  )
}

function ForgotPassword() {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const tipId = useId()
  return (
    <div className="forgot">
      <button
        type="button"
        className="link-button"
        aria-expanded={open}
        aria-controls={tipId}
        onClick={() => setOpen(!open)}
      >
        {t('login.forgot')}
      </button>
      {open && (
        <div className="forgot-tip" id={tipId} role="note">
          <p>{t('login.forgotTip')}</p>
          <code className="forgot-command">emqx ctl admins passwd &lt;username&gt; &lt;password&gt;</code>
        </div>
      )}
    </div>
  )
}

export function LoginPage() {
  const { t } = useTranslation()
  const api = useLoginApi()
  const store = useStore()
  const router = useRouter()
  const search: { to?: unknown } = useSearch({ strict: false })
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [changeDefault, setChangeDefault] = useState<{ username: string; password: string } | null>(null)
  const usernameId = useId()
  const passwordId = useId()

  function proceed() {
    void router.navigate({ href: safeRedirectTarget(search.to), replace: true })
  }

  function validate(next: { username: string; password: string }) {
    const found: Partial<Record<Field, string>> = {}
    if (next.username.trim() === '') found.username = 'login.usernameRequired'
    if (next.password === '') found.password = 'login.passwordRequired'
    return found
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (busy) return
    const found = validate({ username, password })
    setErrors(found)
    setFormError(null)
    if (Object.keys(found).length > 0) return
    setBusy(true)
    const name = username.trim()
    try {
      const result = await api.login({ username: name, password })
      rememberEdition(result.license.edition)
      store.set(sessionAtom, { username: name, token: result.token })
      // The login response does not say the password is the default one; what was typed does.
      if (name === DEFAULT_USERNAME && password === DEFAULT_PASSWORD) {
        setChangeDefault({ username: name, password })
        setBusy(false)
      } else proceed()
    } catch (error) {
      setFormError(loginErrorKey(error))
      setBusy(false)
    }
  }

  return (
    <div className="login">
      <aside className="login-hero" aria-hidden="true">
        <div className="login-hero-brand">
          <Logo size={34} />
          <span>{t('shell.brand')}</span>
        </div>
        <div className="login-hero-body">
          <h2>{t('login.heroTitle')}</h2>
          <p>{t('login.heroText')}</p>
          <ul className="login-hero-points">
            <li>
              <kbd className="kbd">Ctrl</kbd>
              <kbd className="kbd">K</kbd>
              <span>{t('login.pointPalette')}</span>
            </li>
            <li>
              <span className="login-hero-dot" />
              <span>{t('login.pointTerminal')}</span>
            </li>
            <li>
              <span className="login-hero-dot" />
              <span>{t('login.pointCluster')}</span>
            </li>
          </ul>
        </div>
        <div className="login-hero-foot">MQTT · EMQX 5 · REST v5</div>
      </aside>
      <main className="login-main">
        <div className="login-top">
          <LanguageSwitch />
        </div>
        <div className="login-panel">
          {changeDefault ? (
            <ChangeDefaultPassword
              username={changeDefault.username}
              oldPassword={changeDefault.password}
              onDone={proceed}
            />
          ) : (
            <form className="stack login-form" onSubmit={submit} noValidate>
              <div className="login-panel-brand">
                <Logo size={30} />
              </div>
              <div>
                <h1 className="login-title">{t('login.title')}</h1>
                <p className="login-subtitle">{t('login.subtitle')}</p>
              </div>
              <div className="field">
                <label className="field-label" htmlFor={usernameId}>
                  {t('login.username')}
                </label>
                <input
                  id={usernameId}
                  className="input input-lg"
                  name="username"
                  autoComplete="username"
                  autoFocus
                  value={username}
                  aria-invalid={errors.username ? true : undefined}
                  aria-describedby={errors.username ? `${usernameId}-error` : undefined}
                  onChange={(event) => {
                    setUsername(event.target.value)
                    if (errors.username) setErrors({ ...errors, username: undefined })
                  }}
                />
                {errors.username && (
                  <span className="field-error" id={`${usernameId}-error`}>
                    {t(errors.username)}
                  </span>
                )}
              </div>
              <div className="field">
                <label className="field-label" htmlFor={passwordId}>
                  {t('login.password')}
                </label>
                <input
                  id={passwordId}
                  className="input input-lg"
                  type="password"
                  name="password"
                  autoComplete="current-password"
                  value={password}
                  aria-invalid={errors.password ? true : undefined}
                  aria-describedby={errors.password ? `${passwordId}-error` : undefined}
                  onChange={(event) => {
                    setPassword(event.target.value)
                    if (errors.password) setErrors({ ...errors, password: undefined })
                  }}
                />
                {errors.password && (
                  <span className="field-error" id={`${passwordId}-error`}>
                    {t(errors.password)}
                  </span>
                )}
              </div>
              {formError && (
                <div className="form-error" role="alert">
                  {t(formError)}
                </div>
              )}
              <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
                {busy ? t('login.submitting') : t('login.submit')}
              </button>
              <ForgotPassword />
            </form>
          )}
        </div>
      </main>
    </div>
  )
}
