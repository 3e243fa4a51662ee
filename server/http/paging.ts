// EMQX's page/limit paging: query parsing and the `{data, meta}` envelope.
import * as v from 'valibot'

/** EMQX refuses pages larger than this. */
export const MAX_LIMIT = 10_000

export const integerText = v.pipe(v.string(), v.regex(/^\d+$/, 'must be a non-negative integer'), v.transform(Number))

/** `page` (from 1) and `limit` as query entries, with the list's default limit. */
export function pagingEntries(defaultLimit: number) {
  return {
    page: v.optional(v.pipe(integerText, v.minValue(1, 'must be at least 1')), '1'),
    limit: v.optional(v.pipe(integerText, v.minValue(1, 'must be at least 1'), v.maxValue(MAX_LIMIT, `must be at most ${MAX_LIMIT}`)), String(defaultLimit)),
  }
}

export interface Page<T> {
  data: T[]
  meta: { page: number; limit: number; count: number; hasnext: boolean }
}

export function pageOf<T>(items: T[], page: number, limit: number): Page<T> {
  const start = (page - 1) * limit
  return {
    data: items.slice(start, start + limit),
    meta: { page, limit, count: items.length, hasnext: start + limit < items.length },
  }
}
