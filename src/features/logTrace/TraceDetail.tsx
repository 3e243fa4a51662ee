// One trace's log, streamed live into an xterm view as trace.follow reads it (/trace/{name}/log by
// byte position). Following is on when the screen opens; Pause stops reading and Resume reads on
// from where it stopped. Search shows only the lines holding the text, its matches marked. Past
// 5 MB (EMQX's dashboard's limit) the view stops and offers the download instead (SPEC 8).
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from '@tanstack/react-router'
import { downloadTrace, stopTrace } from '../../../commands/trace.ts'
import { followTraceLog, type FollowEnd } from '../../../commands/traceFollow.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { errorText } from '../../ui/errorText.ts'
import { DetailHeader } from '../../ui/DetailHeader.tsx'
import { TraceStatusTag } from './TraceStatusTag.tsx'
import { TraceLogView, type TraceLogViewHandle } from './TraceLogView.tsx'
import { lineMatches } from './traceLineView.ts'
import './log-trace.css'

/** Beyond this many bytes the view stops and offers the download, as EMQX's dashboard does. */
export const MAX_VIEW_BYTES = 5 * 1024 * 1024

export function TraceDetail() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const params: { id?: string } = useParams({ strict: false })
  const name = params.id ?? ''
  const trace = useServerData(['trace'], async (signal) => (await api.trace.list(signal)).find((one) => one.name === name) ?? null, [api, name], { intervalMs: 5000 })

  const view = useRef<TraceLogViewHandle | null>(null)
  const lines = useRef<string[]>([])
  const position = useRef(0)
  const [following, setFollowing] = useState(true)
  const [ended, setEnded] = useState<FollowEnd | null>(null)
  const [tooLong, setTooLong] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [query, setQuery] = useState('')
  const [count, setCount] = useState(0)
  // Whose file is shown: each node of a cluster writes its own; the answering node's at first.
  const [node, setNode] = useState<string | undefined>(undefined)
  const nodes = trace.data ? Object.keys(trace.data.log_size) : []
  const shownNode = node ?? nodes[0]
  // Reading starts once the trace is known, so the first node's file is not read twice.
  const loaded = trace.updatedAt !== null || trace.error !== null
  const queryRef = useRef(query)
  queryRef.current = query

  useEffect(() => {
    if (!following || tooLong || !name || !loaded) return
    const controller = new AbortController()
    setEnded(null)
    setError(null)
    followTraceLog(api, name, {
      signal: controller.signal,
      position: position.current,
      node: shownNode,
      onLines: (chunk) => {
        lines.current.push(...chunk)
        setCount(lines.current.length)
        view.current?.append(chunk.filter((line) => lineMatches(line, queryRef.current)), queryRef.current)
      },
      onPosition: (at) => {
        position.current = at
        if (at > MAX_VIEW_BYTES) {
          setTooLong(true)
          controller.abort()
        }
      },
    })
      .then((end) => {
        if (end === 'aborted') return
        setEnded(end)
        setFollowing(false)
      })
      .catch((failure: unknown) => {
        setError(errorText(failure))
        setFollowing(false)
      })
    return () => controller.abort()
  }, [api, name, shownNode, loaded, following, tooLong])

  // A new search redraws what was read with only the matching lines.
  useEffect(() => {
    view.current?.replace(lines.current.filter((line) => lineMatches(line, query)), query)
  }, [query])

  const showNode = (next: string) => {
    lines.current = []
    position.current = 0
    setCount(0)
    setTooLong(false)
    view.current?.replace([], queryRef.current)
    setNode(next)
    setFollowing(true)
  }

  const download = useCallback(() => void run(downloadTrace, { name, node: shownNode }), [run, name, shownNode])
  const current = trace.data
  const stopped = current?.status === 'stopped' || ended !== null

  return (
    <div className="page log-trace-detail">
      <DetailHeader
        title={<span className="mono">{name}</span>}
        onRefresh={trace.refresh}
        back={
          <Link to="/log-trace/list" className="link">
            {t('logTrace.backToList')}
          </Link>
        }
      >
        {current ? <TraceStatusTag status={current.status} /> : null}
        {current && current.status !== 'stopped' ? (
          <button type="button" className="btn" onClick={() => void run(stopTrace, { name })}>
            {t('logTrace.stop')}
          </button>
        ) : null}
        <button type="button" className="btn btn-primary" onClick={download}>
          {t('logTrace.download')}
        </button>
      </DetailHeader>

      <div className="toolbar log-trace-toolbar">
        {nodes.length > 0 ? (
          <select className="input log-trace-node" aria-label={t('trace.field.node')} value={shownNode} onChange={(event) => showNode(event.target.value)}>
            {nodes.map((one) => (
              <option key={one} value={one}>
                {one}
              </option>
            ))}
          </select>
        ) : null}
        <button
          type="button"
          className="btn btn-sm"
          aria-pressed={following}
          disabled={tooLong || (stopped && !following)}
          onClick={() => setFollowing((on) => !on)}
        >
          {following ? t('logTrace.detail.pause') : t('logTrace.detail.resume')}
        </button>
        <input
          className="input log-trace-search"
          type="search"
          placeholder={t('logTrace.detail.search')}
          aria-label={t('logTrace.detail.search')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <span className="muted" data-testid="trace-line-count">
          {t('logTrace.detail.lines', { count })}
        </span>
        {following && !tooLong ? <span className="tag tag-success">{t('logTrace.detail.follow')}</span> : null}
      </div>

      {tooLong ? (
        <div className="card log-trace-notice" role="alert">
          <span>{t('logTrace.detail.tooLong')}</span>{' '}
          <button type="button" className="btn btn-sm btn-primary" onClick={download}>
            {t('logTrace.download')}
          </button>
        </div>
      ) : null}
      {error ? (
        <div className="card log-trace-notice field-error" role="alert">
          {error}
        </div>
      ) : null}
      {ended ? <p className="muted">{t(`logTrace.detail.ended.${ended}`)}</p> : null}
      {count === 0 && !ended && !error ? <p className="muted">{t('logTrace.detail.waiting')}</p> : null}

      <TraceLogView ref={view} label={t('logTrace.detail.view', { name })} />
    </div>
  )
}
