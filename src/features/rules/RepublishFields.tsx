// The republish output's fields, as EMQX's dashboard lays them out: topic (required), QoS and retain
// (a value or a ${field} template), the payload template, MQTT 5.0 message properties and user
// properties behind a switch, and direct dispatch.
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { REPUBLISH_MQTT_PROPERTIES } from '../../../contract/rules.ts'
import { Field, SwitchField, TextField } from '../websocket/controls.tsx'
import { emptyMqttProperties, type MqttPropertyName, type RepublishDraft } from './ruleFormValues.ts'

const QOS_CHOICES = ['0', '1', '2', '${qos}']
const RETAIN_CHOICES = ['true', 'false', '${flags.retain}']
const PROPERTY_KEYS: Record<MqttPropertyName, string> = {
  'Payload-Format-Indicator': 'payloadFormatIndicator',
  'Message-Expiry-Interval': 'messageExpiryInterval',
  'Content-Type': 'contentType',
  'Response-Topic': 'responseTopic',
  'Correlation-Data': 'correlationData',
}

interface Props {
  draft: RepublishDraft
  /** This output's errors by field, as i18n keys. */
  errors: Record<string, string>
  onChange(draft: RepublishDraft): void
}

export function RepublishFields({ draft, errors, onChange }: Props) {
  const { t } = useTranslation()
  const id = useId()
  const set = <K extends keyof RepublishDraft>(key: K, value: RepublishDraft[K]) => onChange({ ...draft, [key]: value })
  const hasProperties = draft.userProperties !== '' || Object.values(draft.mqttProperties).some((value) => value !== '')
  const [showProperties, setShowProperties] = useState(hasProperties)
  const dispatchIsFlag = draft.directDispatch === 'true' || draft.directDispatch === 'false'
  const error = (field: string) => (errors[field] ? t(errors[field]) : undefined)

  const toggleProperties = (on: boolean) => {
    // Turning them off clears them, as EMQX's dashboard does: what is hidden is not sent.
    if (!on) onChange({ ...draft, mqttProperties: emptyMqttProperties(), userProperties: '' })
    setShowProperties(on)
  }

  return (
    <div className="rules-republish">
      <div className="rules-republish-row">
        <TextField label={t('rules.output.topic')} value={draft.topic} onChange={(value) => set('topic', value)} error={error('topic')} mono placeholder="alerts/${clientid}" data-field="topic" />
        <TextField label="QoS" value={draft.qos} onChange={(value) => set('qos', value)} error={error('qos')} mono list={`${id}-qos`} data-field="qos" />
        <TextField label="Retain" value={draft.retain} onChange={(value) => set('retain', value)} error={error('retain')} mono list={`${id}-retain`} data-field="retain" />
        <datalist id={`${id}-qos`}>
          {QOS_CHOICES.map((choice) => (
            <option key={choice} value={choice} />
          ))}
        </datalist>
        <datalist id={`${id}-retain`}>
          {RETAIN_CHOICES.map((choice) => (
            <option key={choice} value={choice} />
          ))}
        </datalist>
      </div>
      <Field label={t('rules.output.payload')} hint={t('rules.output.payloadHint')}>
        {(control) => (
          <textarea {...control} className="input mono" rows={3} spellCheck={false} value={draft.payload} placeholder="${payload}" onChange={(event) => set('payload', event.target.value)} data-field="payload" />
        )}
      </Field>
      <SwitchField label={t('rules.output.pubProps')} checked={showProperties} onChange={toggleProperties} />
      {showProperties ? (
        <div className="rules-republish-props">
          {REPUBLISH_MQTT_PROPERTIES.map((name) => (
            <TextField
              key={name}
              label={t(`rules.output.${PROPERTY_KEYS[name]}`)}
              value={draft.mqttProperties[name]}
              onChange={(value) => set('mqttProperties', { ...draft.mqttProperties, [name]: value })}
              mono
              data-field={name}
            />
          ))}
          <TextField
            className="rules-user-properties"
            label={t('rules.output.userProperties')}
            hint={t('rules.output.userPropertiesHint')}
            value={draft.userProperties}
            onChange={(value) => set('userProperties', value)}
            mono
            placeholder="${pub_props.'User-Property'}"
            data-field="userProperties"
          />
        </div>
      ) : null}
      {dispatchIsFlag ? (
        <SwitchField label={t('rules.output.directDispatch')} checked={draft.directDispatch === 'true'} onChange={(on) => set('directDispatch', on ? 'true' : 'false')} />
      ) : (
        <TextField label={t('rules.output.directDispatch')} value={draft.directDispatch} onChange={(value) => set('directDispatch', value)} error={error('directDispatch')} mono />
      )}
      <p className="field-hint rules-dispatch-hint">{t('rules.output.directDispatchHint')}</p>
    </div>
  )
}
