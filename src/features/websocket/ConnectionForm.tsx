// The connection's basic settings: where (host, port, path, TLS), who (client id, username,
// password), the MQTT version and the session (keep alive, clean start, expiry, time-out, reconnect).
import { useTranslation } from 'react-i18next'
import { PROTOCOL_VERSIONS, randomClientId } from '../../testclient/connectionSettings.ts'
import { SelectField, SwitchField, TextField } from './controls.tsx'
import type { NumberField } from '../../testclient/settingsRules.ts'
import type { SettingsForm } from './useSettingsForm.ts'

/** A number typed as text, so a wrong value can be shown with its error instead of being refused. */
export function NumberInput({ form, field, label, placeholder, disabled }: { form: SettingsForm; field: NumberField; label: string; placeholder?: string; disabled?: boolean }) {
  return (
    <TextField
      label={label}
      inputMode="numeric"
      value={disabled ? '' : form.text(field)}
      placeholder={placeholder}
      disabled={disabled}
      error={disabled ? undefined : form.error(field)}
      onChange={(text) => form.type(field, text)}
      onBlur={() => form.leave(field)}
    />
  )
}

export function ConnectionForm({ form }: { form: SettingsForm }) {
  const { t } = useTranslation()
  const { settings, save } = form
  const v5 = settings.protocolVersion === 5
  const never = settings.sessionExpiryInterval === 'never'
  return (
    <div className="ws-fields">
      <TextField label={t('testClient.field.host')} value={settings.host} error={form.error('host')} onChange={(host) => save({ host })} />
      <NumberInput form={form} field="port" label={t('testClient.field.port')} />
      <TextField label={t('testClient.field.path')} value={settings.path} mono onChange={(path) => save({ path })} />
      <SwitchField stacked label={t('testClient.field.tls')} checked={settings.tls} onChange={(tls) => save({ tls })} />

      <TextField
        className="ws-field-wide"
        label={t('testClient.field.clientId')}
        value={settings.clientId}
        mono
        onChange={(clientId) => save({ clientId })}
        after={
          <button type="button" className="btn" title={t('testClient.regenerateHint')} onClick={() => save({ clientId: randomClientId() })}>
            {t('testClient.regenerate')}
          </button>
        }
      />
      <TextField label={t('testClient.field.username')} value={settings.username} onChange={(username) => save({ username })} />
      <TextField label={t('testClient.field.password')} type="password" autoComplete="new-password" value={settings.password} onChange={(password) => save({ password })} />

      <SelectField
        label={t('testClient.field.protocol')}
        value={settings.protocolVersion}
        options={PROTOCOL_VERSIONS}
        onChange={(protocolVersion) => save({ protocolVersion })}
      />
      <NumberInput form={form} field="keepalive" label={t('testClient.field.keepalive')} />
      <NumberInput form={form} field="connectTimeout" label={t('testClient.field.connectTimeout')} />
      <SwitchField stacked label={t(v5 ? 'testClient.field.clean' : 'testClient.field.cleanSession')} checked={settings.clean} onChange={(clean) => save({ clean })} />

      {v5 ? (
        <div className="ws-field-pair">
          <NumberInput form={form} field="sessionExpiryInterval" label={t('testClient.field.sessionExpiry')} disabled={never} placeholder={never ? t('testClient.field.neverExpire') : undefined} />
          <SwitchField
            label={t('testClient.field.neverExpire')}
            checked={never}
            onChange={(on) => save({ sessionExpiryInterval: on ? 'never' : 0 })}
          />
        </div>
      ) : null}
      <div className="ws-field-pair">
        {settings.reconnect ? <NumberInput form={form} field="reconnectPeriod" label={t('testClient.field.reconnectPeriod')} /> : null}
        <SwitchField label={t('testClient.field.reconnect')} checked={settings.reconnect} onChange={(reconnect) => save({ reconnect })} />
      </div>
    </div>
  )
}
