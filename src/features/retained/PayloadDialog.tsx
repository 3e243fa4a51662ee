// One stored message in a dialog: its fields, its payload in the chosen encoding (plaintext,
// base64, JSON, hex; over 1 MB: the spec's notice), and a delete button. Shared by the retained
// and the delayed messages screens; the payload arrives base64-encoded from the REST API.
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { decodePayload, PAYLOAD_ENCODINGS, type PayloadEncoding } from '../../testclient/payload.ts'
import { escapeControl } from '../../ui/escapeControl.ts'
import './messages.css'

const ENCODING_KEY = 'payloadView:encoding'

function storedEncoding(): PayloadEncoding {
  try {
    const raw = globalThis.localStorage?.getItem(ENCODING_KEY)
    return PAYLOAD_ENCODINGS.find((e) => e === raw) ?? 'plaintext'
  } catch {
    return 'plaintext'
  }
}

export function base64Bytes(base64: string): Uint8Array | null {
  try {
    const binary = atob(base64)
    return Uint8Array.from(binary, (c) => c.charCodeAt(0))
  } catch {
    return null
  }
}

export type PayloadState =
  | { kind: 'loading' }
  | { kind: 'ready'; bytes: Uint8Array }
  /** The broker left the payload out (too large for it to return); `text` says why. */
  | { kind: 'withheld'; text: string }
  | { kind: 'failed'; text: string }

export interface PayloadDialogProps {
  /** The dialog title: the message's topic. */
  title: string
  fields: readonly { label: string; value: ReactNode; mono?: boolean }[]
  payload: PayloadState
  onClose(): void
  onDelete?(): void
  deleting?: boolean
  testId?: string
}

export function PayloadDialog({ title, fields, payload, onClose, onDelete, deleting, testId }: PayloadDialogProps) {
  const { t } = useTranslation()
  const titleId = useId()
  const ref = useRef<HTMLDivElement>(null)
  const [encoding, setEncoding] = useState<PayloadEncoding>(storedEncoding)
  const [copied, setCopied] = useState(false)
  const decoded = useMemo(() => (payload.kind === 'ready' ? decodePayload(payload.bytes, encoding) : null), [payload, encoding])

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    ref.current?.focus()
    return () => previous?.focus()
  }, [])

  const choose = (next: PayloadEncoding) => {
    setEncoding(next)
    setCopied(false)
    try {
      globalThis.localStorage?.setItem(ENCODING_KEY, next)
    } catch {
      // The choice lasts for this dialog only.
    }
  }

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        className="dialog msg-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation()
            onClose()
          }
        }}
      >
        <div className="dialog-header msg-dialog-header">
          <span className="muted msg-dialog-kicker">{t('payloadView.title')}</span>
          <span className="mono msg-dialog-title" id={titleId}>
            {escapeControl(title)}
          </span>
        </div>
        <div className="dialog-body">
          <dl className="desc-list msg-fields">
            {fields.map((field) => (
              <div className="msg-field" key={field.label}>
                <dt>{field.label}</dt>
                <dd className={field.mono ? 'mono' : undefined}>{typeof field.value === 'string' ? escapeControl(field.value) : field.value}</dd>
              </div>
            ))}
            <div className="msg-field">
              <dt>{t('retained.field.size')}</dt>
              <dd>{payload.kind === 'ready' ? t('payloadView.bytes', { count: payload.bytes.length }) : '—'}</dd>
            </div>
          </dl>

          <div className="msg-payload-head">
            <strong>{t('payloadView.payload')}</strong>
            {payload.kind === 'ready' && !decoded?.tooLarge ? (
              <div className="msg-encodings" role="radiogroup" aria-label={t('payloadView.encoding')}>
                {PAYLOAD_ENCODINGS.map((e) => (
                  <button
                    key={e}
                    type="button"
                    role="radio"
                    aria-checked={encoding === e}
                    className={`btn btn-sm${encoding === e ? ' is-on' : ' btn-ghost'}`}
                    onClick={() => choose(e)}
                  >
                    {t(`payloadView.encodings.${e}`)}
                  </button>
                ))}
              </div>
            ) : null}
            {payload.kind === 'ready' && decoded?.text ? (
              <button
                type="button"
                className="btn btn-ghost btn-sm msg-copy"
                onClick={() => {
                  void navigator.clipboard?.writeText(decoded.text).then(() => setCopied(true), () => undefined)
                }}
              >
                {t(copied ? 'payloadView.copied' : 'payloadView.copy')}
              </button>
            ) : null}
          </div>
          {payload.kind === 'loading' ? (
            <p className="muted">{t('common.loading')}</p>
          ) : payload.kind === 'failed' ? (
            <p className="form-error" role="alert">
              {payload.text}
            </p>
          ) : payload.kind === 'withheld' ? (
            <p className="muted" data-testid="payload-withheld">
              {payload.text}
            </p>
          ) : decoded?.tooLarge ? (
            <p className="muted">{t('testClient.payloadTooLarge')}</p>
          ) : (
            <>
              <pre className="mono msg-payload" data-testid="payload-text">
                {decoded?.text ? escapeControl(decoded.text, { keepLines: true }) : <span className="muted">{t('payloadView.noPayload')}</span>}
              </pre>
              {decoded?.notJson ? <span className="field-hint">{t('payloadView.notJson')}</span> : null}
            </>
          )}
        </div>
        <div className="dialog-footer">
          {onDelete ? (
            <button type="button" className="btn btn-danger msg-delete" onClick={onDelete} disabled={deleting}>
              {t('retained.delete')}
            </button>
          ) : null}
          <button type="button" className="btn" onClick={onClose}>
            {t('payloadView.close')}
          </button>
        </div>
      </div>
    </div>
  )
}
