// EMQX's page/limit paging on the server: the query and envelope are the contract's (contract/paging.ts).
import type { Page } from '../../contract/paging.ts'

export { integerText, MAX_LIMIT, pagingEntries, type Page, type PageMeta } from '../../contract/paging.ts'

export function pageOf<T>(items: T[], page: number, limit: number): Page<T> {
  const start = (page - 1) * limit
  return {
    data: items.slice(start, start + limit),
    meta: { page, limit, count: items.length, hasnext: start + limit < items.length },
  }
}
