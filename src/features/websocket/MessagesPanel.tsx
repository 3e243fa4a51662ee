// The active connection's messages: Received and Published side by side, a topic filter, the display
// encoding, Pause/Resume, Clear and the number kept (testclient.pause, resume, clear, keep), and the
// exact counters (data-count holds the store's figure, for the benchmark).
import { useMemo, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { validateArgs } from '../../../commands/args.ts'
import { testClientClear, testClientKeep, testClientPause, testClientResume } from '../../../commands/testClient.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import type { TestConnection } from '../../testclient/connection.ts'
import { useEncodingOptions } from './ConnectionExtras.tsx'
import { MessageDetail } from './MessageDetail.tsx'
import { MessageList, type MessageSource } from './MessageList.tsx'
import type { TestMessage } from '../../testclient/messages/store.ts'
import type { MessageColumn } from '../../testclient/messageView.ts'
import type { PayloadEncoding } from '../../testclient/payload.ts'
import { useMessages } from './useTestClient.ts'

/** A column's rows for the list: all of them, or those matching the filter (computed once per batch). */
function useSource(column: MessageColumn, version: number, filter: string): MessageSource {
  return useMemo(() => {
    if (filter === '') return column.frozen()
    const rows = column.matching(filter)
    return { length: rows.length, at: (i: number) => rows[i] }
    // `version` is a dependency though unread: it changes whenever the column has changed in place.
  }, [column, version, filter])
}

function Counter({ id, label, value }: { id: string; label: string; value: number }) {
  const { i18n } = useTranslation()
  return (
    <span className="ws-counter" data-testid={`ws-count-${id}`} data-count={value}>
      <span className="muted">{label}</span> <strong>{value.toLocaleString(i18n.language)}</strong>
    </span>
  )
}

function KeptSetting({ kept }: { kept: number }) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const [draft, setDraft] = useState<string | null>(null)
  const text = draft ?? String(kept)
  const checked = validateArgs(testClientKeep, { count: text })
  const error = checked.ok ? undefined : checked.errors[0]
  const apply = async (event: FormEvent) => {
    event.preventDefault()
    if (error) return
    const outcome = await run(testClientKeep, { count: text })
    if (outcome.ok) setDraft(null)
  }
  return (
    <form className="ws-kept" onSubmit={(e) => void apply(e)} noValidate>
      <label className="muted" htmlFor="ws-kept-input">
        {t('testClient.field.kept')}
      </label>
      <input
        id="ws-kept-input"
        className="input ws-kept-input"
        inputMode="numeric"
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'ws-kept-error' : undefined}
        onChange={(e) => setDraft(e.target.value)}
      />
      <button type="submit" className="btn btn-sm" disabled={Boolean(error) || draft === null || Number(draft) === kept}>
        {t('testClient.apply')}
      </button>
      {error ? (
        <span className="field-error" id="ws-kept-error" role="alert">
          {t(error.key, error.values ?? {})}
        </span>
      ) : null}
    </form>
  )
}

export function MessagesPanel({ connection, kept }: { connection: TestConnection; kept: number }) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const encodings = useEncodingOptions()
  const { view, version, counts, paused } = useMessages(connection.store)
  const [filter, setFilter] = useState('')
  const [encoding, setEncoding] = useState<PayloadEncoding>('plaintext')
  const [opened, setOpened] = useState<TestMessage | null>(null)
  const received = useSource(view.received, version, filter.trim())
  const published = useSource(view.published, version, filter.trim())
  const args = { connection: connection.name }
  const empty = filter.trim() ? t('testClient.emptyFiltered', { filter: filter.trim() }) : t('testClient.empty')

  return (
    <section className="card ws-messages" aria-labelledby="ws-messages-title">
      <div className="ws-messages-head">
        <h2 className="card-title" id="ws-messages-title">
          {t('testClient.section.messages')}
        </h2>
        {paused ? <span className="tag tag-warning">{t('testClient.paused')}</span> : null}
        <div className="ws-counters" aria-live="off">
          <Counter id="received" label={t('testClient.received')} value={counts.received} />
          <Counter id="published" label={t('testClient.published')} value={counts.published} />
          <Counter id="dropped" label={t('testClient.dropped')} value={counts.droppedFromView} />
        </div>
      </div>
      <div className="toolbar ws-messages-toolbar">
        <input
          className="input mono ws-filter"
          type="search"
          aria-label={t('testClient.filter')}
          placeholder={t('testClient.filterPlaceholder')}
          spellCheck={false}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <label className="ws-inline-select">
          <span className="muted">{t('testClient.displayAs')}</span>
          <select className="select" value={encoding} onChange={(e) => setEncoding(e.target.value as PayloadEncoding)}>
            {encodings.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn" onClick={() => void run(paused ? testClientResume : testClientPause, args)}>
          {t(paused ? 'testClient.resume' : 'testClient.pause')}
        </button>
        <button type="button" className="btn" onClick={() => void run(testClientClear, args)}>
          {t('testClient.clear')}
        </button>
        <KeptSetting kept={kept} />
      </div>
      {paused ? <p className="field-hint">{t('testClient.pausedHint')}</p> : null}
      <div className="ws-lists">
        <div className="ws-list-column">
          <h3 className="ws-list-title">
            {t('testClient.received')}
            <span className="muted">{t('common.count', { count: received.length.toLocaleString() })}</span>
          </h3>
          <MessageList label={t('testClient.received')} source={received} encoding={encoding} emptyText={empty} testId="ws-received" onOpen={setOpened} />
        </div>
        <div className="ws-list-column">
          <h3 className="ws-list-title">
            {t('testClient.published')}
            <span className="muted">{t('common.count', { count: published.length.toLocaleString() })}</span>
          </h3>
          <MessageList label={t('testClient.published')} source={published} encoding={encoding} emptyText={empty} testId="ws-published" onOpen={setOpened} />
        </div>
      </div>
      {opened ? <MessageDetail message={opened} encoding={encoding} onClose={() => setOpened(null)} /> : null}
    </section>
  )
}
