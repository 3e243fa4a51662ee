// The routing table (GET /topics): the topics with at least one subscriber and the node (or durable
// session) that routes them, filtered by exact topic, one server page at a time.
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { Topic } from '../../api/topics.ts'
import { useApi } from '../../app/useApi.ts'
import { listPaging, useServerList, type ListView } from '../../app/useServerList.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'
import { topicListSearch, useParsedSearch, type TopicListSearch } from '../../routes/searchValues.ts'
import './subscriptions.css'

const DEFAULT_LIMIT = 20

type ListSearch = TopicListSearch
const parseSearch = topicListSearch(DEFAULT_LIMIT)

export function TopicList() {
  const { t } = useTranslation()
  const api = useApi()
  const navigate = useNavigate()
  const search = useParsedSearch(parseSearch)

  const [draft, setDraft] = useState(search.topic ?? '')
  useEffect(() => setDraft(search.topic ?? ''), [search])

  const list = useServerList(
    (page, limit, signal) => api.topics.list({ ...(search.topic ? { topic: search.topic } : {}), page, limit }, signal),
    search,
    DEFAULT_LIMIT,
    [api, search],
  )
  const filterRef = useRef<HTMLInputElement>(null)

  const go = useCallback(
    (next: Omit<ListSearch, 'limit'> & ListView) => {
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
        cell: ({ getValue }) => escapeControl(getValue()) || '—',
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

  const data = list.data?.data ?? EMPTY

  return (
    <div className="page topics-page">
      <div className="page-header">
        <h1>{t('topics.title')}</h1>
        <div>
          <button type="button" className="btn" onClick={list.refresh} disabled={list.loading}>
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
        loading={list.loading}
        error={list.error}
        onRetry={list.refresh}
        paging={listPaging(list, (next) => go({ ...search, ...next }))}
      />
    </div>
  )
}

const EMPTY: readonly Topic[] = []
