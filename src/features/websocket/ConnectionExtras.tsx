// The connection's optional parts, folded by default: MQTT 5 CONNECT properties and the will message.
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ConnectionSettings } from '../../testclient/connectionSettings.ts'
import { Field, KeyValueRows, QOS_OPTIONS, SelectField, SwitchField, TextField, userProperties } from './controls.tsx'
import { NumberInput } from './ConnectionForm.tsx'
import { PAYLOAD_ENCODINGS, type PayloadEncoding } from '../../testclient/payload.ts'
import type { Text } from '../../../commands/define.ts'
import type { SettingsForm } from './useSettingsForm.ts'

export function useEncodingOptions(): { value: PayloadEncoding; label: string }[] {
  const { t } = useTranslation()
  return PAYLOAD_ENCODINGS.map((value) => ({ value, label: t(`testClient.encoding.${value}`) }))
}

/** User property rows: typed rows stay as typed; the filled ones are saved once every value has a key. */
function ConnectUserProperties({ form }: { form: SettingsForm }) {
  const { t } = useTranslation()
  const [rows, setRows] = useState<[string, string][]>(() => (form.settings.userProperties.length ? form.settings.userProperties : [['', '']]))
  const [error, setError] = useState<Text | undefined>()
  return (
    <KeyValueRows
      label={t('form.field.userProperties')}
      rows={rows}
      error={error}
      onChange={(next) => {
        setRows(next)
        const checked = userProperties(next)
        setError(checked.ok ? undefined : checked.error)
        if (checked.ok) form.save({ userProperties: checked.value })
      }}
    />
  )
}

function ConnectProperties({ form }: { form: SettingsForm }) {
  const { t } = useTranslation()
  const { settings, save } = form
  return (
    <details className="ws-details">
      <summary>{t('testClient.section.connectProperties')}</summary>
      <div className="ws-fields">
        <NumberInput form={form} field="receiveMaximum" label={t('testClient.field.receiveMaximum')} />
        <NumberInput form={form} field="maximumPacketSize" label={t('testClient.field.maximumPacketSize')} />
        <NumberInput form={form} field="topicAliasMaximum" label={t('testClient.field.topicAliasMaximum')} />
        <SwitchField
          stacked
          label={t('testClient.field.requestResponseInformation')}
          checked={settings.requestResponseInformation ?? false}
          onChange={(on) => save({ requestResponseInformation: on ? true : undefined })}
        />
        <div className="ws-field-full">
          <ConnectUserProperties form={form} />
        </div>
      </div>
    </details>
  )
}

function WillMessage({ form }: { form: SettingsForm }) {
  const { t } = useTranslation()
  const encodings = useEncodingOptions()
  const { settings, saveWill } = form
  const will: ConnectionSettings['will'] = settings.will
  const v5 = settings.protocolVersion === 5
  return (
    <details className="ws-details" open={will.enabled || undefined}>
      <summary>
        {t('testClient.section.will')}
        {will.enabled ? <span className="tag tag-success ws-summary-tag">{t('testClient.on')}</span> : null}
      </summary>
      <div className="ws-fields">
        <SwitchField stacked label={t('testClient.field.willEnabled')} checked={will.enabled} onChange={(enabled) => saveWill({ enabled })} />
        {will.enabled ? (
          <>
            <TextField className="ws-field-wide" label={t('testClient.field.willTopic')} mono value={will.topic} error={form.error('willTopic')} onChange={(topic) => saveWill({ topic })} />
            <SelectField label={t('form.field.qos')} value={will.qos} options={QOS_OPTIONS} onChange={(qos) => saveWill({ qos })} />
            <SwitchField stacked label={t('form.field.retain')} checked={will.retain} onChange={(retain) => saveWill({ retain })} />
            <SelectField label={t('form.field.payloadEncoding')} value={will.encoding} options={encodings} onChange={(encoding) => saveWill({ encoding })} />
            <Field className="ws-field-full" label={t('testClient.field.willPayload')} error={form.error('willPayload')}>
              {(control) => (
                <textarea {...control} className="input mono ws-payload" spellCheck={false} value={will.payload} onChange={(e) => saveWill({ payload: e.target.value })} />
              )}
            </Field>
            {v5 ? (
              <>
                <NumberInput form={form} field="willDelayInterval" label={t('testClient.field.willDelayInterval')} />
                <NumberInput form={form} field="willMessageExpiryInterval" label={t('testClient.field.messageExpiryInterval')} />
                <TextField label={t('testClient.field.contentType')} value={will.contentType ?? ''} onChange={(contentType) => saveWill({ contentType: contentType || undefined })} />
              </>
            ) : null}
          </>
        ) : null}
      </div>
    </details>
  )
}

export function ConnectionExtras({ form }: { form: SettingsForm }) {
  return (
    <div className="ws-extras">
      {form.settings.protocolVersion === 5 ? <ConnectProperties form={form} /> : null}
      <WillMessage form={form} />
    </div>
  )
}
