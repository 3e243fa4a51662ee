// Topic metrics: the monitored topics with their messages in, out and dropped (counts and rates,
// per QoS), re-read every few seconds. Add checks the topic as typed (no wildcards) and, for a
// topic already monitored, points at its row instead of running (SPEC 8); reset and remove per
// row, reset all in the header.
import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { validateArgs, type FieldError } from '../../../commands/args.ts'
import { addTopicMetrics, removeTopicMetrics, resetTopicMetrics } from '../../../commands/topicMetrics.ts'
import type { TopicMetrics as TopicMetricsRow } from '../../api/topicMetrics.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { formatTime } from '../clients/clientFields.ts'
import './topicMetrics.css'

const REFRESH_MS = 3000

function count(row: TopicMetricsRow, name: string): number {
  return row.metrics[`${name}.count`] ?? 0
}

function rate(row: TopicMetricsRow, name: string): number {
  return row.metrics[`${name}.rate`] ?? 0
}

/** A count with its rate per second beside it, muted. */
function CountRate({ count: n, rate: r }: { count: number; rate: number }) {
  const { t } = useTranslation()
  return (
    <span className="tm-count">
      <span>{n.toLocaleString()}</span>
      <span className="muted tm-rate">{t('topicMetrics.perSecond', { rate: r.toFixed(2) })}</span>
    </span>
  )
}

export function TopicMetrics() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const list = useServerData(['topicMetrics'], (signal) => api.topicMetrics.list(signal), [api], { intervalMs: REFRESH_MS })
  const [topic, setTopic] = useState('')
  const [errors, setErrors] = useState<FieldError[]>([])
  const [duplicate, setDuplicate] = useState<string | null>(null)
  const [focus, setFocus] = useState<{ id?: string; key: number }>({ key: 0 })
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set())
  const inputRef = useRef<HTMLInputElement>(null)

  const rows = list.data ?? EMPTY

  const onTopicChange = (value: string) => {
    setTopic(value)
    setDuplicate(null)
    // Checked as typed, so a wildcard is refused before anything runs (SPEC 5).
    const checked = value === '' ? null : validateArgs(addTopicMetrics, { topic: value })
    setErrors(checked && !checked.ok ? checked.errors : [])
  }

  const onAdd = async (event: FormEvent) => {
    event.preventDefault()
    const checked = validateArgs(addTopicMetrics, { topic })
    if (!checked.ok) {
      setErrors(checked.errors)
      inputRef.current?.focus()
      return
    }
    // Already monitored: say so and go to its row rather than asking the server (SPEC 8).
    if (rows.some((row) => row.topic === topic)) {
      setDuplicate(topic)
      setFocus((current) => ({ id: topic, key: current.key + 1 }))
      return
    }
    const outcome = await run(addTopicMetrics, { topic })
    if (outcome.ok) {
      setTopic('')
      setErrors([])
      setFocus((current) => ({ id: topic, key: current.key + 1 }))
    }
  }

  const rowAction = useCallback(
    async (key: string, action: () => Promise<unknown>) => {
      setBusy((current) => new Set(current).add(key))
      await action()
      setBusy((current) => {
        const next = new Set(current)
        next.delete(key)
        return next
      })
    },
    [],
  )

  const columns = useMemo(() => {
    const col = dataTableColumns<TopicMetricsRow>()
    const pair = (name: 'in' | 'out' | 'dropped', header: string) =>
      col.accessor((row) => count(row, `messages.${name}`), {
        id: name,
        header,
        size: 130,
        meta: { align: 'end', numeric: true },
        cell: ({ row }) => <CountRate count={count(row.original, `messages.${name}`)} rate={rate(row.original, `messages.${name}`)} />,
      })
    const qos = (level: 0 | 1 | 2) =>
      col.accessor((row) => `${count(row, `messages.qos${level}.in`)} / ${count(row, `messages.qos${level}.out`)}`, {
        id: `qos${level}`,
        header: t('topicMetrics.col.qos', { qos: level }),
        size: 110,
        meta: { align: 'end', numeric: true, label: t('topicMetrics.col.qosLabel', { qos: level }) },
      })
    return col.columns([
      col.accessor('topic', {
        header: t('topicMetrics.col.topic'),
        size: 200,
        enableHiding: false,
        meta: { mono: true, grow: true },
      }),
      pair('in', t('topicMetrics.col.in')),
      pair('out', t('topicMetrics.col.out')),
      pair('dropped', t('topicMetrics.col.dropped')),
      qos(0),
      qos(1),
      qos(2),
      col.accessor((row) => formatTime(row.create_time).text, {
        id: 'create_time',
        header: t('topicMetrics.col.createTime'),
        size: 150,
        meta: { numeric: true },
      }),
      col.accessor((row) => formatTime(row.reset_time).text, {
        id: 'reset_time',
        header: t('topicMetrics.col.resetTime'),
        size: 150,
        meta: { numeric: true },
      }),
      col.display({
        id: 'actions',
        header: t('topicMetrics.col.actions'),
        size: 140,
        enableHiding: false,
        meta: { label: t('topicMetrics.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => {
          const name = row.original.topic
          return (
            <span className="tm-actions">
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={busy.has(name)}
                onClick={() => void rowAction(name, () => run(resetTopicMetrics, { topic: name }))}
              >
                {t('topicMetrics.reset')}
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm tm-remove"
                disabled={busy.has(name)}
                onClick={() => void rowAction(name, () => run(removeTopicMetrics, { topic: name }))}
              >
                {t('topicMetrics.remove')}
              </button>
            </span>
          )
        },
      }),
    ])
  }, [t, busy, rowAction, run])

  const error = errors.find((e) => e.field === 'topic') ?? errors[0]

  return (
    <div className="page tm-page">
      <div className="page-header">
        <h1>{t('topicMetrics.title')}</h1>
        <div>
          <button type="button" className="btn" onClick={list.refresh} disabled={list.loading}>
            {t('topicMetrics.refresh')}
          </button>
          <button type="button" className="btn" disabled={rows.length === 0} onClick={() => void run(resetTopicMetrics, {})}>
            {t('topicMetrics.resetAll')}
          </button>
        </div>
      </div>

      <form className="tm-add" onSubmit={(event) => void onAdd(event)} noValidate aria-label={t('topicMetrics.addLabel')}>
        <div className="tm-add-row">
          <input
            ref={inputRef}
            className="input mono tm-topic"
            value={topic}
            placeholder={t('topicMetrics.topicPlaceholder')}
            aria-label={t('topicMetrics.col.topic')}
            aria-invalid={error ? true : undefined}
            aria-describedby="tm-add-message"
            onChange={(event) => onTopicChange(event.target.value)}
          />
          <button type="submit" className="btn btn-primary">
            {t('topicMetrics.add')}
          </button>
        </div>
        <div id="tm-add-message" className="tm-add-message" aria-live="polite">
          {error ? (
            <span className="field-error" role="alert">
              {t(error.key, error.values ?? {})}
            </span>
          ) : duplicate ? (
            <span className="tm-tip" role="status">
              {t('topicMetrics.duplicate', { topic: duplicate })}
            </span>
          ) : (
            <span className="field-hint">{t('topicMetrics.hint')}</span>
          )}
        </div>
      </form>

      <DataTable
        id="topic-metrics"
        label={t('topicMetrics.title')}
        columns={columns}
        data={rows}
        getRowId={(row) => row.topic}
        pageKeys
        loading={list.loading && list.data === null}
        error={list.error}
        onRetry={list.refresh}
        focusRowId={focus.id}
        focusKey={focus.key}
        emptyText={t('topicMetrics.empty')}
        caption={<span className="muted">{t('topicMetrics.total', { count: rows.length })}</span>}
      />
    </div>
  )
}

const EMPTY: TopicMetricsRow[] = []
