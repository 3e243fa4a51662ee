// A new API key's secret, shown this once: EMQX never answers it again and the console keeps it
// nowhere, so it is gone when this dialog closes. Key and secret each copy with a button.
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { CreatedApiKey } from '../../api/apiKeys.ts'
import { copyText } from '../../app/palette/request.ts'
import { Dialog } from '../../ui/Dialog.tsx'

function CopyRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation()
  const [copied, setCopied] = useState(false)
  return (
    <div className="field">
      <span className="field-label">{label}</span>
      <div className="secret-row">
        <code className="mono secret-value" data-testid={testId}>
          {value}
        </code>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => void copyText(value).then(() => setCopied(true), () => setCopied(false))}
        >
          {copied ? t('apiKeys.copied') : t('apiKeys.copy')}
        </button>
      </div>
    </div>
  )
}

export function SecretDialog({ created, onClose }: { created: CreatedApiKey; onClose(): void }) {
  const { t } = useTranslation()
  const closeRef = useRef<HTMLButtonElement>(null)
  useEffect(() => closeRef.current?.focus(), [])
  return (
    <Dialog title={t('apiKeys.createdTitle', { name: created.name })} className="secret-dialog" testId="api-key-secret" keepOpen onClose={onClose}>
      <div className="dialog-body">
        <p className="secret-warning" role="note">
          {t('apiKeys.secretOnce')}
        </p>
        <CopyRow label={t('apiKeys.col.key')} value={created.api_key} testId="api-key-key" />
        <CopyRow label={t('apiKeys.secret')} value={created.api_secret} testId="api-key-secret-value" />
      </div>
      <div className="dialog-footer">
        <button ref={closeRef} type="button" className="btn btn-primary" onClick={onClose}>
          {t('apiKeys.done')}
        </button>
      </div>
    </Dialog>
  )
}
