// The republish output's fields, as EMQX's dashboard lays them out: topic (required), QoS and retain
// (a value or a ${field} template), the payload template, MQTT 5.0 message properties and user
// properties behind a switch, and direct dispatch.
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { REPUBLISH_MQTT_PROPERTIES } from '../../../contract/rules.ts'
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

  const toggleProperties = () => {
    // Turning them off clears them, as EMQX's dashboard does: what is hidden is not sent.
    if (showProperties) onChange({ ...draft, mqttProperties: emptyMqttProperties(), userProperties: '' })
    setShowProperties(!showProperties)
  }

  const error = (field: string) =>
    errors[field] ? (
      <span className="field-error" id={`${id}-${field}-error`}>
        {t(errors[field])}
      </span>
    ) : null
  const invalid = (field: string) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` } : {})

  return (
    <div className="rules-republish">
      <div className="rules-republish-row">
        <label className="field rules-republish-topic">
          <span className="field-label">{t('rules.output.topic')}</span>
          <input className="input mono" value={draft.topic} placeholder="alerts/${clientid}" onChange={(event) => set('topic', event.target.value)} {...invalid('topic')} data-field="topic" />
          {error('topic')}
        </label>
        <label className="field">
          <span className="field-label">QoS</span>
          <input className="input mono" list={`${id}-qos`} value={draft.qos} onChange={(event) => set('qos', event.target.value)} {...invalid('qos')} data-field="qos" />
          <datalist id={`${id}-qos`}>
            {QOS_CHOICES.map((choice) => (
              <option key={choice} value={choice} />
            ))}
          </datalist>
          {error('qos')}
        </label>
        <label className="field">
          <span className="field-label">Retain</span>
          <input className="input mono" list={`${id}-retain`} value={draft.retain} onChange={(event) => set('retain', event.target.value)} {...invalid('retain')} data-field="retain" />
          <datalist id={`${id}-retain`}>
            {RETAIN_CHOICES.map((choice) => (
              <option key={choice} value={choice} />
            ))}
          </datalist>
          {error('retain')}
        </label>
      </div>
      <label className="field">
        <span className="field-label">{t('rules.output.payload')}</span>
        <textarea className="input mono" rows={3} value={draft.payload} placeholder="${payload}" onChange={(event) => set('payload', event.target.value)} data-field="payload" />
        <span className="field-hint">{t('rules.output.payloadHint')}</span>
      </label>
      <div className="rules-inline-switch">
        <button type="button" role="switch" className="switch" aria-checked={showProperties} aria-labelledby={`${id}-props`} onClick={toggleProperties} />
        <span id={`${id}-props`}>{t('rules.output.pubProps')}</span>
      </div>
      {showProperties ? (
        <div className="rules-republish-props">
          {REPUBLISH_MQTT_PROPERTIES.map((name) => (
            <label key={name} className="field">
              <span className="field-label">{t(`rules.output.${PROPERTY_KEYS[name]}`)}</span>
              <input
                className="input mono"
                value={draft.mqttProperties[name]}
                onChange={(event) => set('mqttProperties', { ...draft.mqttProperties, [name]: event.target.value })}
                data-field={name}
              />
            </label>
          ))}
          <label className="field rules-user-properties">
            <span className="field-label">{t('rules.output.userProperties')}</span>
            <input className="input mono" value={draft.userProperties} placeholder="${pub_props.'User-Property'}" onChange={(event) => set('userProperties', event.target.value)} data-field="userProperties" />
            <span className="field-hint">{t('rules.output.userPropertiesHint')}</span>
          </label>
        </div>
      ) : null}
      <div className="rules-inline-switch">
        {dispatchIsFlag ? (
          <button
            type="button"
            role="switch"
            className="switch"
            aria-checked={draft.directDispatch === 'true'}
            aria-labelledby={`${id}-dispatch`}
            onClick={() => set('directDispatch', draft.directDispatch === 'true' ? 'false' : 'true')}
          />
        ) : (
          <input className="input mono rules-dispatch-template" value={draft.directDispatch} aria-labelledby={`${id}-dispatch`} onChange={(event) => set('directDispatch', event.target.value)} {...invalid('directDispatch')} />
        )}
        <span id={`${id}-dispatch`}>{t('rules.output.directDispatch')}</span>
        <span className="field-hint">{t('rules.output.directDispatchHint')}</span>
      </div>
      {error('directDispatch')}
    </div>
  )
}
