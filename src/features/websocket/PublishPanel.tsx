// Publish (testclient.publish): topic, QoS, retain, a payload in the chosen encoding (checked as
// typed) and, for MQTT 5, the PUBLISH properties. Ctrl+Enter in the payload publishes.
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { validateArgs, type FieldError } from '../../../commands/args.ts'
import { testClientPublish } from '../../../commands/testClient.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import type { TestConnection } from '../../testclient/connection.ts'
import { useEncodingOptions } from './ConnectionExtras.tsx'
import { Field, KeyValueRows, QOS_OPTIONS, SelectField, SwitchField, TextField } from './controls.tsx'
import { usePublishDraft, type PublishDraft } from './drafts.ts'
import { encodePayload } from '../../testclient/payload.ts'
import { useConnection } from './useTestClient.ts'

/** The command's raw arguments, as the palette would pass them; MQTT 5 properties only when set. */
function publishArgs(draft: PublishDraft, connection: string, v5: boolean): Record<string, string> {
  const args: Record<string, string> = {
    topic: draft.topic,
    payload: draft.payload,
    encoding: draft.encoding,
    qos: String(draft.qos),
    // Defaults are left out, so the terminal line and the history read as a person would type them.
    ...(draft.retain ? { retain: 'true' } : {}),
    connection,
  }
  if (!v5) return args
  const set = (name: string, value: string) => {
    if (value.trim() !== '') args[name] = value
  }
  if (draft.payloadFormatIndicator) args.payload_format_indicator = 'true'
  set('message_expiry_interval', draft.messageExpiryInterval)
  set('content_type', draft.contentType)
  set('response_topic', draft.responseTopic)
  set('correlation_data', draft.correlationData)
  set('topic_alias', draft.topicAlias)
  if (draft.userProperties.some(([k, v]) => k !== '' || v !== '')) args.user_properties = JSON.stringify(draft.userProperties)
  return args
}

function publishErrors(draft: PublishDraft, args: Record<string, string>): FieldError[] {
  const checked = validateArgs(testClientPublish, args)
  const errors = checked.ok ? [] : [...checked.errors]
  const encoded = encodePayload(draft.payload, draft.encoding)
  if (!encoded.ok && !errors.some((e) => e.field === 'payload')) errors.push({ field: 'payload', key: encoded.error })
  return errors
}

function PublishProperties({ draft, update, errorFor }: { draft: PublishDraft; update(patch: Partial<PublishDraft>): void; errorFor(field: string): FieldError | undefined }) {
  const { t } = useTranslation()
  // A wrong property opens the section, so the reason Publish waits is in view.
  const invalid = ['message_expiry_interval', 'topic_alias', 'response_topic', 'user_properties'].some((f) => errorFor(f))
  return (
    <details className="ws-details" open={invalid || undefined}>
      <summary>{t('testClient.section.publishProperties')}</summary>
      <div className="ws-fields ws-fields-tight">
        <SwitchField
          stacked
          label={t('testClient.field.payloadFormatIndicator')}
          checked={draft.payloadFormatIndicator}
          onChange={(payloadFormatIndicator) => update({ payloadFormatIndicator })}
        />
        <TextField label={t('testClient.field.messageExpiryInterval')} inputMode="numeric" value={draft.messageExpiryInterval} error={errorFor('message_expiry_interval')} onChange={(messageExpiryInterval) => update({ messageExpiryInterval })} />
        <TextField label={t('testClient.field.contentType')} value={draft.contentType} onChange={(contentType) => update({ contentType })} />
        <TextField label={t('testClient.field.topicAlias')} inputMode="numeric" value={draft.topicAlias} error={errorFor('topic_alias')} onChange={(topicAlias) => update({ topicAlias })} />
        <TextField className="ws-field-wide" label={t('testClient.field.responseTopic')} mono value={draft.responseTopic} error={errorFor('response_topic')} onChange={(responseTopic) => update({ responseTopic })} />
        <TextField className="ws-field-wide" label={t('testClient.field.correlationData')} mono value={draft.correlationData} onChange={(correlationData) => update({ correlationData })} />
        <div className="ws-field-full">
          <KeyValueRows
            label={t('form.field.userProperties')}
            rows={draft.userProperties}
            error={errorFor('user_properties')}
            onChange={(userProperties) => update({ userProperties: userProperties.length ? userProperties : [['', '']] })}
          />
        </div>
      </div>
    </details>
  )
}

export function PublishPanel({ connection }: { connection: TestConnection }) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const encodings = useEncodingOptions()
  const { settings } = useConnection(connection)
  const v5 = settings.protocolVersion === 5
  const [draft, update] = usePublishDraft(connection.name)
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const args = publishArgs(draft, connection.name, v5)
  const errors = publishErrors(draft, args)
  const errorFor = (field: string) => errors.find((e) => e.field === field)

  const publish = async (event?: FormEvent) => {
    event?.preventDefault()
    if (errors.length || busy) return
    setBusy(true)
    const outcome = await run(testClientPublish, args)
    setBusy(false)
    setFailure(outcome.ok ? null : outcome.error.kind === 'failed' ? outcome.error.message : null)
  }

  return (
    <section className="card ws-panel ws-publish" aria-labelledby="ws-publish-title">
      <h2 className="card-title" id="ws-publish-title">
        {t('testClient.section.publish')}
      </h2>
      <form onSubmit={(e) => void publish(e)} noValidate aria-label={t('testClient.publish')}>
        <div className="ws-fields ws-fields-tight">
          <TextField className="ws-field-wide" label={t('form.field.topic')} mono value={draft.topic} error={errorFor('topic')} onChange={(topic) => update({ topic })} />
          <SelectField label={t('form.field.qos')} value={draft.qos} options={QOS_OPTIONS} onChange={(qos) => update({ qos })} />
          <SelectField label={t('form.field.payloadEncoding')} value={draft.encoding} options={encodings} onChange={(encoding) => update({ encoding })} />
          <SwitchField stacked label={t('form.field.retain')} checked={draft.retain} onChange={(retain) => update({ retain })} />
          <Field className="ws-field-full" label={t('form.field.payload')} error={errorFor('payload')}>
            {(control) => (
              <textarea
                {...control}
                className="input mono ws-payload"
                spellCheck={false}
                value={draft.payload}
                onChange={(e) => update({ payload: e.target.value })}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                    e.preventDefault()
                    void publish()
                  }
                }}
              />
            )}
          </Field>
        </div>
        {v5 ? <PublishProperties draft={draft} update={update} errorFor={errorFor} /> : null}
        <div className="ws-form-actions">
          {failure ? (
            <span className="form-error ws-failure" role="alert" data-testid="ws-publish-failure">
              {failure}
            </span>
          ) : (
            <span className="field-hint">
              <kbd className="kbd">Ctrl</kbd> <kbd className="kbd">Enter</kbd> {t('testClient.publishKey')}
            </span>
          )}
          <button type="submit" className="btn btn-primary" disabled={errors.length > 0 || busy}>
            {t('testClient.publish')}
          </button>
        </div>
      </form>
    </section>
  )
}
