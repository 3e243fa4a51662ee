// The routing table (GET /topics): the topics with at least one subscriber and the node (or durable
// session) that routes them, filtered by exact topic, one server page at a time.
import { useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { topicsSearch, type Topic } from '../../api/topics.ts'
import { useApi } from '../../app/useApi.ts'
import { listPaging, useServerList } from '../../app/useServerList.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { FilterBar, useFilterForm } from '../../ui/FilterBar.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useListSearch } from '../../routes/searchValues.ts'
import { escapeControl } from '../../ui/escapeControl.ts'
import './subscriptions.css'

const DEFAULT_LIMIT = 20

export function TopicList() {
  const { t } = useTranslation()
  const api = useApi()
  const { search, go } = useListSearch(topicsSearch, '/subscriptions/topics', { defaultLimit: DEFAULT_LIMIT })
  const form = useFilterForm(topicsSearch, search, go)

  const list = useServerList(
    ['topics'],
    (page, limit, signal) => api.topics.list({ ...search, page, limit }, signal),
    search,
    DEFAULT_LIMIT,
    [api, search],
  )
  const filterRef = useRef<HTMLInputElement>(null)

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

  const data = list.data?.data ?? EMPTY

  return (
    <div className="page topics-page">
      <PageHeader title={t('topics.title')} onRefresh={list.refresh} refreshing={list.loading} />

      <FilterBar className="subscriptions-filters" label={t('topics.filters')} onSubmit={form.onSubmit} onReset={form.onReset}>
        <input
          ref={filterRef}
          className="input"
          placeholder={t('topics.field.topic')}
          aria-label={t('topics.field.topic')}
          aria-keyshortcuts="/"
          title={t('topics.topicHint')}
          {...form.field('topic')}
        />
      </FilterBar>

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
