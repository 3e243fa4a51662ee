// One virtualized list of messages, newest first: only the rows in view are in the DOM, and a row
// decodes its payload once per display encoding, so a frame's batch costs the rows on screen only.
import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useCallback, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { TestMessage } from './messages/store.ts'
import { formatClock, formatProperties } from './messageFormat.ts'
import { decodePayload, type PayloadEncoding } from './payload.ts'

export interface MessageSource {
  length: number
  /** The i-th row, newest first. */
  at(i: number): TestMessage | undefined
}

const MessageRow = memo(function MessageRow({ message, encoding }: { message: TestMessage; encoding: PayloadEncoding }) {
  const { t } = useTranslation()
  const decoded = useMemo(() => decodePayload(message.payload, encoding), [message, encoding])
  const properties = useMemo(() => formatProperties(message.properties), [message])
  return (
    <>
      <div className="ws-msg-head">
        <span className="mono ws-msg-topic" title={message.topic}>
          {message.topic}
        </span>
        <span className="tag ws-msg-qos">{t('testClient.qos', { qos: message.qos })}</span>
        {message.retain ? <span className="tag tag-warning">{t('testClient.retained')}</span> : null}
        <span className="ws-msg-time mono">{formatClock(message.time)}</span>
      </div>
      {properties.length ? (
        <div className="ws-msg-props">
          {properties.map((p) => (
            <span key={typeof p.label === 'string' ? p.label : p.label.key}>
              <span className="muted">{typeof p.label === 'string' ? p.label : t(p.label.key)}:</span> <span className="mono">{p.value}</span>
            </span>
          ))}
        </div>
      ) : null}
      {decoded.tooLarge ? (
        <div className="muted ws-msg-payload">{t('testClient.payloadTooLarge')}</div>
      ) : (
        <pre className="mono ws-msg-payload">{decoded.text}</pre>
      )}
      {decoded.notJson ? <span className="field-hint">{t('testClient.notJson')}</span> : null}
    </>
  )
})

export function MessageList({ label, source, encoding, emptyText, testId }: { label: string; source: MessageSource; encoding: PayloadEncoding; emptyText: string; testId: string }) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const getScrollElement = useCallback(() => scrollRef.current, [])
  const estimateSize = useCallback(() => 76, [])
  // The key is the message's id, so measured heights follow a row as newer ones push it down.
  // `source` is a new object whenever its rows change, so this key function follows it.
  const getItemKey = useCallback((index: number) => source.at(index)?.id ?? -index, [source])
  const virtualizer = useVirtualizer({ count: source.length, getScrollElement, estimateSize, getItemKey, overscan: 6 })
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
              ref={virtualizer.measureElement}
              data-index={item.index}
              role="listitem"
              className="ws-msg"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <MessageRow message={message} encoding={encoding} />
            </div>
          )
        })}
      </div>
    </div>
  )
}
