// A new webhook (/webhook/create): EMQX's starting form (all topics, POST, content-type JSON). Save
// runs webhook.create, which makes the connector, action and rule together.
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { WebhookForm } from './WebhookForm.tsx'
import { newWebhookValues } from './webhookFormValues.ts'
import './webhook.css'

export function WebhookCreate() {
  const { t } = useTranslation()
  const [initial] = useState(newWebhookValues)
  return (
    <div className="page webhook-page">
      <div className="page-header">
        <h1>{t('webhook.createTitle')}</h1>
      </div>
      <p className="muted">
        <Link to="/webhook/list" className="link">
          {t('webhook.backToList')}
        </Link>
      </p>
      <WebhookForm initial={initial} />
    </div>
  )
}
