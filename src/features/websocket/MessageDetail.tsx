// One message in full: topic, direction, QoS, retain, time, every MQTT 5 property and the whole
// payload in the chosen encoding (over 1 MB: the spec's notice instead).
import { useEffect, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { TestMessage } from '../../testclient/messages/store.ts'
import { formatClock, formatProperties } from '../../testclient/messageFormat.ts'
import { decodePayload, type PayloadEncoding } from '../../testclient/payload.ts'
import { escapeControl } from '../../ui/escapeControl.ts'

export function MessageDetail({ message, encoding, onClose }: { message: TestMessage; encoding: PayloadEncoding; onClose(): void }) {
  const { t } = useTranslation()
  const ref = useRef<HTMLElement>(null)
  const decoded = useMemo(() => decodePayload(message.payload, encoding), [message, encoding])
  const properties = useMemo(() => formatProperties(message.properties), [message])
  useEffect(() => ref.current?.focus(), [message])

  return (
    <section
      ref={ref}
      className="ws-detail"
      aria-label={t('testClient.detail')}
      data-testid="ws-detail"
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation()
          onClose()
        }
      }}
    >
      <div className="ws-detail-head">
        <strong>{t(message.direction === 'in' ? 'testClient.received' : 'testClient.published')}</strong>
        <span className="mono ws-msg-topic">{escapeControl(message.topic)}</span>
        <span className="tag">{t('testClient.qos', { qos: message.qos })}</span>
        {message.retain ? <span className="tag tag-warning">{t('testClient.retained')}</span> : null}
        <span className="mono muted">{formatClock(message.time)}</span>
        <span className="muted">{t('testClient.bytes', { count: message.payload.length })}</span>
        <button type="button" className="btn btn-ghost btn-sm ws-detail-close" onClick={onClose}>
          {t('testClient.closeDetail')}
        </button>
      </div>
      {properties.length ? (
        <dl className="ws-detail-props">
          {properties.map((p) => (
            <div key={typeof p.label === 'string' ? p.label : p.label.key}>
              <dt className="muted">{typeof p.label === 'string' ? escapeControl(p.label) : t(p.label.key)}</dt>
              <dd className="mono">{escapeControl(p.value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {decoded.tooLarge ? (
        <p className="muted">{t('testClient.payloadTooLarge')}</p>
      ) : (
        <pre className="mono ws-detail-payload">{escapeControl(decoded.text, { keepLines: true })}</pre>
      )}
      {decoded.notJson ? <span className="field-hint">{t('testClient.notJson')}</span> : null}
    </section>
  )
}
