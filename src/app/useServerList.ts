// A list screen's server data: one page (`page`, `limit`) or, with `limit` 'all', every page through
// the list-all helper with its progress. listPaging gives DataTable the matching pager.
import { useState } from 'react'
import type { ApiArea } from '../../commands/define.ts'
import { listAll, type ListPage } from '../api/listAll.ts'
import type { ServerPaging } from '../ui/DataTable.tsx'
import { PAGE_SIZES } from '../ui/DataTable.tsx'
import { useServerData, type ServerData, type ServerDataOptions } from './useServerData.ts'

export type ListLimit = number | 'all'

export interface ListView {
  page?: number
  limit?: ListLimit
}

export interface ListProgress {
  loaded: number
  total: number | undefined
}

export interface ServerList<T> extends ServerData<ListPage<T>> {
  page: number
  limit: ListLimit
  /** While every page is being read. */
  progress: ListProgress | null
}

/** `areas`: the API areas the list reads, as useServerData takes them. */
export function useServerList<T>(
  areas: readonly ApiArea[],
  fetchPage: (page: number, limit: number, signal: AbortSignal) => Promise<ListPage<T>>,
  view: ListView,
  defaultLimit: number,
  deps: readonly unknown[],
  options: ServerDataOptions = {},
): ServerList<T> {
  const page = view.page ?? 1
  const limit = view.limit ?? defaultLimit
  const [progress, setProgress] = useState<ListProgress | null>(null)
  const result = useServerData<ListPage<T>>(
    areas,
    async (signal) => {
      if (limit !== 'all') return fetchPage(page, limit, signal)
      setProgress({ loaded: 0, total: undefined })
      try {
        const data = await listAll((p, l) => fetchPage(p, l, signal), {
          signal,
          onProgress: (loaded, total) => {
            if (!signal.aborted) setProgress({ loaded, total })
          },
        })
        return { data, meta: { count: data.length, hasnext: false } }
      } finally {
        if (!signal.aborted) setProgress(null)
      }
    },
    [page, limit, ...deps],
    options,
  )
  return { ...result, page, limit, progress }
}

/** DataTable's pager for a server list; `go` gets the next page and limit (page undefined: the first). */
export function listPaging(
  list: Pick<ServerList<unknown>, 'page' | 'limit' | 'data'>,
  go: (next: ListView) => void,
  options: { showAll?: boolean; pageSizes?: readonly number[] } = {},
): ServerPaging {
  const all = list.limit === 'all'
  const meta = list.data?.meta
  return {
    page: all ? 1 : list.page,
    pageSize: all ? Math.max(1, list.data?.data.length ?? 1) : (list.limit as number),
    count: meta?.count,
    hasNext: all ? false : (meta?.hasnext ?? false),
    pageSizes: options.pageSizes ?? PAGE_SIZES,
    onPageChange: (page) => go({ page, limit: list.limit }),
    onPageSizeChange: (size) => go({ page: undefined, limit: size }),
    onShowAll: options.showAll ? () => go({ page: undefined, limit: 'all' }) : undefined,
    all,
  }
}
