// What fires a webhook, as EMQX's Webhook screen offers it: messages published on topic filters
// (rows to add and remove) with the events of a message's way to subscribers beside them, and the
// other event sources (clients, sessions, authentication, alarms). Titles come from /rule_events in
// the operator's language; the choice becomes the rule's FROM.
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { MESSAGE_EVENTS, WEBHOOK_EVENTS } from '../../../commands/webhookModel.ts'
import type { Text } from '../../../commands/define.ts'
import type { RuleEventInfo } from '../../../contract/rules.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'

interface Props {
  topics: string[]
  events: string[]
  onChange(trigger: { topics: string[]; events: string[] }): void
  /** By `topics.<index>` and `trigger`. */
  errors: Record<string, Text>
}

const OTHER_EVENTS = WEBHOOK_EVENTS.filter((event) => !MESSAGE_EVENTS.includes(event))

export function TriggerPicker({ topics, events, onChange, errors }: Props) {
  const { t, i18n } = useTranslation()
  const api = useApi()
  const id = useId()
  const catalogue = useServerData([], (signal) => api.rules.events(signal), [api])
  const titleOf = (event: string) => {
    const info: RuleEventInfo | undefined = catalogue.data?.find((item) => item.event === event)
    // EMQX leaves some Chinese titles empty (the alarm events): the English one stands in.
    const title = (info && ((i18n.language.startsWith('zh') && info.title.zh) || info.title.en)) || event.replace(/^\$events\/(sys\/)?/, '')
    return title.replace(/_/g, ' ')
  }
  const setTopics = (next: string[]) => onChange({ topics: next, events })
  const toggle = (event: string, on: boolean) => onChange({ topics, events: on ? [...events, event] : events.filter((e) => e !== event) })
  // Events a rule made elsewhere names (a `$bridges/…` source) stay chosen and shown.
  const extra = events.filter((event) => !WEBHOOK_EVENTS.includes(event))

  const checkboxes = (list: readonly string[]) =>
    list.map((event) => (
      <label key={event} className="webhook-event" title={event}>
        <input type="checkbox" checked={events.includes(event)} onChange={(e) => toggle(event, e.target.checked)} data-event={event} />
        <span>{titleOf(event)}</span>
      </label>
    ))

  return (
    <fieldset className="webhook-trigger" aria-describedby={errors.trigger ? `${id}-error` : undefined}>
      <legend className="field-label">{t('webhook.trigger')}</legend>
      <div>
        {/* EMQX's "All messages and events": every topic and every event source. */}
        <button type="button" className="btn btn-sm" onClick={() => onChange({ topics: ['#'], events: [...WEBHOOK_EVENTS, ...extra] })}>
          {t('webhook.allMessagesAndEvents')}
        </button>
      </div>
      <div className="webhook-trigger-group">
        <h3 className="webhook-trigger-title">{t('webhook.messages')}</h3>
        <ul className="webhook-topics" aria-label={t('webhook.field.topics')}>
          {topics.map((topic, index) => {
            const error = errors[`topics.${index}`]
            return (
              <li key={index} className="webhook-topic">
                <input
                  className="input mono"
                  value={topic}
                  aria-label={t('webhook.topicRow', { index: index + 1 })}
                  placeholder="t/#"
                  autoComplete="off"
                  spellCheck={false}
                  {...(error ? { 'aria-invalid': true } : {})}
                  onChange={(e) => setTopics(topics.map((other, j) => (j === index ? e.target.value : other)))}
                />
                <button type="button" className="btn btn-ghost btn-sm" aria-label={t('webhook.removeTopic', { index: index + 1 })} onClick={() => setTopics(topics.filter((_, j) => j !== index))}>
                  ×
                </button>
                {error ? (
                  <span className="field-error" role="alert">
                    {t(error.key, error.values ?? {})}
                  </span>
                ) : null}
              </li>
            )
          })}
        </ul>
        <button type="button" className="btn btn-sm" onClick={() => setTopics([...topics, ''])}>
          {t('webhook.addTopic')}
        </button>
        <div className="webhook-events" role="group" aria-label={t('webhook.messageEvents')}>
          {checkboxes(MESSAGE_EVENTS)}
        </div>
        <p className="field-hint webhook-trigger-note">{t('webhook.messageEventsNote')}</p>
      </div>
      <div className="webhook-trigger-group">
        <h3 className="webhook-trigger-title">{t('webhook.events')}</h3>
        <div className="webhook-events" role="group" aria-label={t('webhook.events')}>
          {checkboxes([...OTHER_EVENTS, ...extra])}
        </div>
      </div>
      {errors.trigger ? (
        <span className="field-error" id={`${id}-error`} role="alert">
          {t(errors.trigger.key, errors.trigger.values ?? {})}
        </span>
      ) : null}
    </fieldset>
  )
}
