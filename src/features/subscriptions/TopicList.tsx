// The routing table (GET /topics): the topics with at least one subscriber and the node (or durable
// session) that routes them, filtered by exact topic, one server page at a time.
import { useNavigate } from '@tanstack/react-router'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { Topic, TopicListParams, TopicPage } from '../../api/topics.ts'
import { useApi } from '../../app/useApi.ts'
import { commandRunsAtom } from '../../state/commandRuns.ts'
import { DataTable, dataTableColumns, PAGE_SIZES } from '../../ui/DataTable.tsx'
import { searchPaging, useParsedSearch } from '../../routes/searchValues.ts'
import { errorText } from '../../ui/errorText.ts'
import './subscriptions.css'

const DEFAULT_LIMIT = 20

interface ListSearch {
  topic?: string
  page?: number
  limit?: number
}

function parseSearch(raw: Record<string, unknown>): ListSearch {
  const out: ListSearch = {}
  if (typeof raw.topic === 'string' && raw.topic.trim() !== '') out.topic = raw.topic.trim()
  Object.assign(out, searchPaging(raw, DEFAULT_LIMIT))
  return out
}

interface LoadState {
  page: TopicPage | null
  loading: boolean
  error: string | null
}

export function TopicList() {
  const { t } = useTranslation()
  const api = useApi()
  const navigate = useNavigate()
  const search = useParsedSearch(parseSearch)
  const page = search.page ?? 1
  const limit = search.limit ?? DEFAULT_LIMIT

  const [draft, setDraft] = useState(search.topic ?? '')
  useEffect(() => setDraft(search.topic ?? ''), [search])

  const [state, setState] = useState<LoadState>({ page: null, loading: true, error: null })
  const [tick, setTick] = useState(0)
  const commandRuns = useAtomValue(commandRunsAtom)
  const refresh = useCallback(() => setTick((n) => n + 1), [])
  const filterRef = useRef<HTMLInputElement>(null)

  useEffect(() => {
    const controller = new AbortController()
    const params: TopicListParams = { page, limit }
    if (search.topic) params.topic = search.topic
    setState((previous) => ({ ...previous, loading: true }))
    api.topics.list(params, controller.signal).then(
      (result) => setState({ page: result, loading: false, error: null }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        setState((previous) => ({ ...previous, loading: false, error: errorText(error) }))
      },
    )
    return () => controller.abort()
  }, [api, search, page, limit, tick, commandRuns])

  const go = useCallback(
    (next: ListSearch) => {
      void navigate({ to: '/subscriptions/topics', search: { ...parseSearch({ ...next }) } })
    },
    [navigate],
  )

  const columns = useMemo(() => {
    const col = dataTableColumns<Topic>()
    return col.columns([
      col.accessor('topic', { header: t('topics.field.topic'), size: 320, meta: { mono: true, grow: true }, enableHiding: false }),
      col.accessor((topic) => topic.node ?? topic.session ?? '', {
        id: 'node',
        header: t('topics.field.node'),
        size: 220,
        meta: { mono: true },
        cell: ({ getValue }) => getValue() || '—',
      }),
    ])
  }, [t])

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    go(parseSearch({ topic: draft, limit: search.limit }))
  }
  const onReset = () => {
    setDraft('')
    go(search.limit ? { limit: search.limit } : {})
  }

  const meta = state.page?.meta
  const data = state.page?.data ?? EMPTY

  return (
    <div className="page topics-page">
      <div className="page-header">
        <h1>{t('topics.title')}</h1>
        <div>
          <button type="button" className="btn" onClick={refresh} disabled={state.loading}>
            {t('topics.refresh')}
          </button>
        </div>
      </div>

      <form className="toolbar subscriptions-filters" onSubmit={onSubmit} role="search" aria-label={t('topics.filters')}>
        <input
          ref={filterRef}
          className="input"
          placeholder={t('topics.field.topic')}
          aria-label={t('topics.field.topic')}
          aria-keyshortcuts="/"
          title={t('topics.topicHint')}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit" className="btn btn-primary">
          {t('topics.search')}
        </button>
        <button type="button" className="btn" onClick={onReset}>
          {t('topics.reset')}
        </button>
      </form>

      <DataTable
        id="topics"
        label={t('topics.title')}
        columns={columns}
        data={data}
        getRowId={(topic) => `${topic.node ?? topic.session ?? ''}\u0000${topic.topic}`}
        filterRef={filterRef}
        pageKeys
        loading={state.loading}
        error={state.error}
        onRetry={refresh}
        paging={{
          page,
          pageSize: limit,
          count: meta?.count,
          hasNext: meta?.hasnext ?? false,
          pageSizes: PAGE_SIZES,
          onPageChange: (next) => go({ ...search, page: next }),
          onPageSizeChange: (size) => go({ ...search, page: undefined, limit: size }),
        }}
      />
    </div>
  )
}

const EMPTY: readonly Topic[] = []
