// A webhook's trigger in a line: its topics and events as tags (in a list row the first few, the rest counted).
import { useTranslation } from 'react-i18next'
import type { WebhookTrigger } from '../../../commands/webhookModel.ts'
import { escapeControl } from '../../ui/escapeControl.ts'


/** `shown`: how many tags before the rest are counted (all when absent). */
export function TriggerTags({ trigger, shown }: { trigger: WebhookTrigger; shown?: number }) {
  const { t } = useTranslation()
  const all = [...trigger.topics.map((topic) => ({ text: topic, event: false })), ...trigger.events.map((event) => ({ text: event.replace(/^\$events\//, ''), event: true }))]
  const limit = shown ?? all.length
  const more = all.length - limit
  return (
    <span className="webhook-trigger-tags" title={[...trigger.topics, ...trigger.events].join('\n')}>
      {all.slice(0, limit).map(({ text, event }, index) => (
        <span key={index} className={`tag mono${event ? ' tag-event' : ''}`} aria-label={event ? t('webhook.eventTag', { event: text }) : undefined}>
          {escapeControl(text)}
        </span>
      ))}
      {more > 0 ? <span className="tag tag-muted">+{more}</span> : null}
    </span>
  )
}
