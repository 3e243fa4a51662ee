// An authenticator's settings, editable: its form filled with the stored config (a secret as EMQX
// masks it), Save runs authn.update, Revert goes back to what is stored.
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { updateAuthenticator } from '../../../commands/authn.ts'
import type { AnyAuthenticator } from '../../api/authn.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { AuthnConfigForm, useAuthnForm } from './AuthnConfigForm.tsx'
import { configOf, formFields, valuesOf } from './authnFields.ts'

export function AuthnSettings({ authenticator }: { authenticator: AnyAuthenticator }) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const fields = formFields(authenticator.id)
  const stored = useMemo(() => valuesOf(fields, authenticator), [fields, authenticator])
  const form = useAuthnForm(stored)
  const { values, setValues, setErrors } = form
  const [saving, setSaving] = useState(false)
  const dirty = Object.keys(values).some((key) => values[key] !== stored[key])

  if (fields.length === 0) return <pre className="card mono authn-raw">{JSON.stringify(authenticator, null, 2)}</pre>

  const onSubmit = async () => {
    const { config, errors: found } = configOf(fields, values)
    if (found.length) return setErrors(found)
    setSaving(true)
    await run(updateAuthenticator, { id: authenticator.id, config })
    setSaving(false)
  }

  return (
    <section className="card authn-form">
      <AuthnConfigForm
        fields={fields}
        form={form}
        onSubmit={() => void onSubmit()}
        label={t('authn.tab.settings')}
      >
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {t('common.save')}
          </button>
          <button type="button" className="btn" disabled={!dirty || saving} onClick={() => (setValues(stored), setErrors([]))}>
            {t('common.revert')}
          </button>
        </div>
      </AuthnConfigForm>
    </section>
  )
}
