// One virtualized list of messages, newest first: only the rows in view are in the DOM. Rows have
// one fixed height (payload cut to a few lines, properties to one), so the list never measures a
// row: at thousands of messages a second every visible row is new each frame, and measuring each
// forced a layout per row. The whole message opens in MessageDetail.
import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useCallback, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { TestMessage } from '../../testclient/messages/store.ts'
import { formatClock, formatProperties } from '../../testclient/messageFormat.ts'
import { MAX_VIEWABLE_PAYLOAD, decodePayload, type PayloadEncoding } from '../../testclient/payload.ts'
import { escapeControl } from '../../ui/escapeControl.ts'

export interface MessageSource {
  length: number
  /** The i-th row, newest first. */
  at(i: number): TestMessage | undefined
}

/** Pixels; .ws-msg in websocket.css has this height. */
export const ROW_HEIGHT = 78
/** Bytes of payload a row decodes; the detail shows all. */
const ROW_PREVIEW_BYTES = 600

const MessageRow = memo(function MessageRow({ message, encoding, onOpen }: { message: TestMessage; encoding: PayloadEncoding; onOpen(message: TestMessage): void }) {
  const { t } = useTranslation()
  // A row shows a few lines: decode only the head of a long payload (a cut JSON is shown as text).
  const decoded = useMemo(() => {
    if (message.payload.length > MAX_VIEWABLE_PAYLOAD) return { text: '', tooLarge: true }
    const cut = message.payload.length > ROW_PREVIEW_BYTES
    return decodePayload(cut ? message.payload.subarray(0, ROW_PREVIEW_BYTES) : message.payload, cut && encoding === 'json' ? 'plaintext' : encoding)
  }, [message, encoding])
  const properties = useMemo(() => formatProperties(message.properties), [message])
  return (
    <>
      <div className="ws-msg-head">
        <span className="mono ws-msg-topic" title={escapeControl(message.topic)}>
          {escapeControl(message.topic)}
        </span>
        <span className="tag ws-msg-qos">{t('testClient.qos', { qos: message.qos })}</span>
        {message.retain ? <span className="tag tag-warning">{t('testClient.retained')}</span> : null}
        <span className="ws-msg-time mono">{formatClock(message.time)}</span>
        <button type="button" className="btn btn-ghost btn-sm ws-msg-open" onClick={() => onOpen(message)}>
          {t('testClient.view')}
        </button>
      </div>
      {properties.length ? (
        <div className="ws-msg-props">
          {properties.map((p) => (
            <span key={typeof p.label === 'string' ? p.label : p.label.key}>
              <span className="muted">{t('common.labelled', { label: typeof p.label === 'string' ? escapeControl(p.label) : t(p.label.key) })}</span> <span className="mono">{escapeControl(p.value)}</span>
            </span>
          ))}
        </div>
      ) : null}
      {decoded.tooLarge ? (
        <div className="muted ws-msg-payload">{t('testClient.payloadTooLarge')}</div>
      ) : (
        <pre className={`mono ws-msg-payload${properties.length ? '' : ' is-tall'}`}>{escapeControl(decoded.text, { keepLines: true })}</pre>
      )}
    </>
  )
})

export interface MessageListProps {
  label: string
  source: MessageSource
  encoding: PayloadEncoding
  emptyText: string
  testId: string
  onOpen(message: TestMessage): void
}

export function MessageList({ label, source, encoding, emptyText, testId, onOpen }: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const getScrollElement = useCallback(() => scrollRef.current, [])
  const estimateSize = useCallback(() => ROW_HEIGHT, [])
  // `source` is a new object whenever its rows change, so this key function follows it.
  const getItemKey = useCallback((index: number) => source.at(index)?.id ?? -index, [source])
  const virtualizer = useVirtualizer({ count: source.length, getScrollElement, estimateSize, getItemKey, overscan: 4 })
  const items = virtualizer.getVirtualItems()

  return (
    <div ref={scrollRef} className="ws-list" role="region" aria-label={label} data-testid={testId} tabIndex={0}>
      {source.length === 0 ? <p className="muted ws-list-empty">{emptyText}</p> : null}
      <div className="ws-list-inner" role="list" aria-label={label} style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const message = source.at(item.index)
          if (!message) return null
          return (
            <div
              key={item.key}
              data-index={item.index}
              role="listitem"
              className="ws-msg"
              style={{ transform: `translateY(${item.start}px)` }}
              onDoubleClick={() => onOpen(message)}
            >
              <MessageRow message={message} encoding={encoding} onOpen={onOpen} />
            </div>
          )
        })}
      </div>
    </div>
  )
}
