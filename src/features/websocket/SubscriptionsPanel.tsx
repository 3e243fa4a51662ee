// Subscribe (testclient.subscribe) with the MQTT 5 options when the connection speaks v5, and the
// connection's subscriptions, each with its unsubscribe button (testclient.unsubscribe, confirmed).
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { validateArgs, type FieldError } from '../../../commands/args.ts'
import { testClientSubscribe, testClientUnsubscribe } from '../../../commands/testClient.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import type { Subscription, TestConnection } from '../../testclient/connection.ts'
import { QOS_OPTIONS, SelectField, SwitchField, TextField } from './controls.tsx'
import { useSubscribeDraft, type SubscribeDraft } from './drafts.ts'
import { useConnection } from './useTestClient.ts'

/** The command's raw arguments for this draft: strings, as the palette would pass them. */
function subscribeArgs(draft: SubscribeDraft, connection: string, v5: boolean): Record<string, string> {
  return {
    topic: draft.topic,
    qos: String(draft.qos),
    // MQTT 5 options only when set, so the terminal line and the history read as a person would type them.
    ...(v5 && draft.nl ? { nl: 'true' } : {}),
    ...(v5 && draft.rap ? { rap: 'true' } : {}),
    ...(v5 && draft.rh ? { rh: String(draft.rh) } : {}),
    ...(v5 && draft.subid.trim() ? { subid: draft.subid } : {}),
    connection,
  }
}

/** The palette's own checks; an empty topic says so (the command would fall back to t/#). */
function subscribeErrors(draft: SubscribeDraft, args: Record<string, string>): FieldError[] {
  if (draft.topic === '') return [{ field: 'topic', key: 'err.topicRequired' }]
  const checked = validateArgs(testClientSubscribe, args)
  return checked.ok ? [] : checked.errors
}

function SubscriptionRow({ subscription, v5, onUnsubscribe, busy }: { subscription: Subscription; v5: boolean; onUnsubscribe(): void; busy: boolean }) {
  const { t } = useTranslation()
  return (
    <li className="ws-sub">
      <span className="mono ws-sub-topic" title={subscription.topic}>
        {subscription.topic}
      </span>
      <span className="ws-sub-options">
        <span className="tag">{t('testClient.qos', { qos: subscription.granted })}</span>
        {v5 && subscription.nl ? <span className="tag tag-muted">{t('form.field.nl')}</span> : null}
        {v5 && subscription.rap ? <span className="tag tag-muted">{t('form.field.rap')}</span> : null}
        {v5 && subscription.rh ? <span className="tag tag-muted">{t('testClient.rhShort', { rh: subscription.rh })}</span> : null}
        {v5 && subscription.subscriptionIdentifier !== undefined ? (
          <span className="tag tag-muted">{t('testClient.subidShort', { id: subscription.subscriptionIdentifier })}</span>
        ) : null}
      </span>
      <button type="button" className="btn btn-ghost btn-sm ws-unsubscribe" disabled={busy} onClick={onUnsubscribe} aria-label={t('testClient.unsubscribeTopic', { topic: subscription.topic })}>
        {t('testClient.unsubscribe')}
      </button>
    </li>
  )
}

export function SubscriptionsPanel({ connection }: { connection: TestConnection }) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const { settings, subscriptions } = useConnection(connection)
  const v5 = settings.protocolVersion === 5
  const [draft, update] = useSubscribeDraft(connection.name)
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set())
  const args = subscribeArgs(draft, connection.name, v5)
  const errors = subscribeErrors(draft, args)
  const errorFor = (field: string) => errors.find((e) => e.field === field)

  const subscribe = async (event: FormEvent) => {
    event.preventDefault()
    if (errors.length) return
    setBusy((b) => new Set(b).add(draft.topic))
    const outcome = await run(testClientSubscribe, args)
    setBusy((b) => new Set([...b].filter((topic) => topic !== draft.topic)))
    setFailure(outcome.ok ? null : outcome.error.kind === 'failed' ? outcome.error.message : null)
  }
  const unsubscribe = async (topic: string) => {
    setBusy((b) => new Set(b).add(topic))
    const outcome = await run(testClientUnsubscribe, { topic, connection: connection.name })
    setBusy((b) => new Set([...b].filter((t) => t !== topic)))
    setFailure(outcome.ok ? null : outcome.error.kind === 'failed' ? outcome.error.message : null)
  }

  return (
    <section className="card ws-panel ws-subscriptions" aria-labelledby="ws-subscriptions-title">
      <h2 className="card-title" id="ws-subscriptions-title">
        {t('testClient.section.subscriptions')}
        <span className="muted">{t('common.count', { count: subscriptions.length })}</span>
      </h2>
      <form className="ws-subscribe-form" onSubmit={(e) => void subscribe(e)} noValidate aria-label={t('testClient.subscribe')}>
        <div className="ws-fields ws-fields-tight">
          <TextField className="ws-field-wide" label={t('form.field.topic')} mono value={draft.topic} error={errorFor('topic')} onChange={(topic) => update({ topic })} />
          <SelectField label={t('form.field.qos')} value={draft.qos} options={QOS_OPTIONS} onChange={(qos) => update({ qos })} />
          {v5 ? (
            <>
              <SelectField
                className="ws-field-wide"
                label={t('form.field.rh')}
                value={draft.rh}
                options={([0, 1, 2] as const).map((rh) => ({ value: rh, label: `${rh} · ${t(`clients.sub.rh${rh}`)}` }))}
                onChange={(rh) => update({ rh })}
              />
              <TextField label={t('testClient.field.subscriptionIdentifier')} inputMode="numeric" value={draft.subid} error={errorFor('subid')} onChange={(subid) => update({ subid })} />
              <div className="ws-field-full ws-switch-row">
                <SwitchField label={t('form.field.nl')} checked={draft.nl} onChange={(nl) => update({ nl })} />
                <SwitchField label={t('form.field.rap')} checked={draft.rap} onChange={(rap) => update({ rap })} />
              </div>
            </>
          ) : null}
        </div>
        <div className="ws-form-actions">
          {failure ? (
            <span className="form-error ws-failure" role="alert" data-testid="ws-subscribe-failure">
              {failure}
            </span>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={errors.length > 0 || busy.has(draft.topic)}>
            {t('testClient.subscribe')}
          </button>
        </div>
      </form>
      {subscriptions.length === 0 ? (
        <p className="muted ws-empty">{t('testClient.noSubscriptions')}</p>
      ) : (
        <ul className="ws-sub-list" aria-label={t('testClient.section.subscriptions')}>
          {subscriptions.map((s) => (
            <SubscriptionRow key={s.topic} subscription={s} v5={v5} busy={busy.has(s.topic)} onUnsubscribe={() => void unsubscribe(s.topic)} />
          ))}
        </ul>
      )}
    </section>
  )
}
