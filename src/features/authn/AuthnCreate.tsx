// Creating an authenticator in three steps, as EMQX's console does: the mechanism, then the backend
// (password-based only; SCRAM has the built-in database alone, JWT none), then its settings with
// EMQX's defaults. Create runs authn.create; a backend the server cannot run answers its message.
import { Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { createAuthenticator } from '../../../commands/authn.ts'
import { MECHANISMS, PASSWORD_BACKENDS, authenticatorId, type Mechanism } from '../../../contract/authn.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { AuthnConfigForm, useAuthnForm } from './AuthnConfigForm.tsx'
import { configOf, defaultValues, formFields } from './authnFields.ts'
import { backendLabel, mechanismLabel } from './authnLabels.ts'
import { ChoiceGroup } from './ChoiceGroup.tsx'
import './authn.css'

type Step = 'mechanism' | 'backend' | 'config'

/** The backends a mechanism offers; none for jwt. */
const backendsOf = (mechanism: Mechanism): readonly string[] =>
  mechanism === 'password_based' ? PASSWORD_BACKENDS : mechanism === 'scram' ? ['built_in_database'] : []

export function AuthnCreate() {
  const { t } = useTranslation()
  const run = useRunCommand()
  const navigate = useNavigate()
  const [step, setStep] = useState<Step>('mechanism')
  const [mechanism, setMechanism] = useState<Mechanism>('password_based')
  const [backend, setBackend] = useState<string>('built_in_database')
  const form = useAuthnForm({})
  const { values, setValues, setErrors } = form
  const [saving, setSaving] = useState(false)

  const backends = backendsOf(mechanism)
  const id = authenticatorId({ mechanism, backend: backends.length ? backend : undefined })
  const fields = formFields(id)

  const toConfig = () => {
    setValues(defaultValues(fields))
    setErrors([])
    setStep('config')
  }
  const next = () => {
    if (step === 'mechanism' && backends.length > 1) {
      if (!backends.includes(backend)) setBackend(backends[0])
      setStep('backend')
    } else toConfig()
  }
  const back = () => setStep(step === 'config' && backends.length > 1 ? 'backend' : 'mechanism')

  const onSubmit = async () => {
    const { config, errors: found } = configOf(fields, values)
    if (found.length) return setErrors(found)
    setSaving(true)
    const outcome = await run(createAuthenticator, { mechanism, ...(backends.length ? { backend } : {}), config })
    setSaving(false)
    if (outcome.ok) void navigate({ to: '/authentication/list' })
  }

  const steps: Step[] = backends.length > 1 ? ['mechanism', 'backend', 'config'] : ['mechanism', 'config']

  return (
    <div className="page authn-page authn-create">
      <div className="page-header">
        <h1>{t('authn.createTitle')}</h1>
        <div>
          <Link to="/authentication/list" className="btn">
            {t('common.cancel')}
          </Link>
        </div>
      </div>
      <ol className="flow-steps" aria-label={t('authn.stepsLabel')}>
        {steps.map((name, index) => (
          <li key={name} aria-current={name === step ? 'step' : undefined}>
            {index + 1}. {t(`authn.step.${name}`)}
          </li>
        ))}
      </ol>

      {step === 'mechanism' ? (
        <ChoiceGroup
          label={t('authn.step.mechanism')}
          options={MECHANISMS.map((value) => ({ value, title: mechanismLabel(t, value), text: t(`authn.mechanismHint.${value}`) }))}
          value={mechanism}
          onChange={(value) => setMechanism(value as Mechanism)}
          onPick={next}
        />
      ) : null}
      {step === 'backend' ? (
        <ChoiceGroup
          label={t('authn.step.backend')}
          options={backends.map((value) => ({ value, title: backendLabel(t, value), text: t(`authn.backendHint.${value}`) }))}
          value={backend}
          onChange={setBackend}
          onPick={toConfig}
        />
      ) : null}
      {step === 'config' ? (
        <section className="card authn-form">
          <h2 className="authn-form-title">
            {mechanismLabel(t, mechanism)}
            {backends.length ? ` · ${backendLabel(t, backend)}` : ''}
          </h2>
          <AuthnConfigForm
            fields={fields}
            form={form}
            onSubmit={() => void onSubmit()}
            label={t('authn.createTitle')}
          >
            <div className="form-actions">
              <button type="button" className="btn" onClick={back}>
                {t('authn.back')}
              </button>
              <button type="submit" className="btn btn-primary" disabled={saving}>
                {t('authn.createSubmit')}
              </button>
            </div>
          </AuthnConfigForm>
        </section>
      ) : (
        <div className="form-actions">
          {step !== 'mechanism' ? (
            <button type="button" className="btn" onClick={back}>
              {t('authn.back')}
            </button>
          ) : null}
          <button type="button" className="btn btn-primary" onClick={next}>
            {t('authn.next')}
          </button>
        </div>
      )}
    </div>
  )
}
