// EMQX's page/limit paging, written once for both sides: the query the server parses (`page` from 1,
// `limit` up to 10000) and the `{data, meta}` envelope it writes and the browser reads.
import * as v from 'valibot'

/** EMQX refuses pages larger than this. */
export const MAX_LIMIT = 10_000

/** A non-negative integer sent as query text. */
export const integerText = v.pipe(v.string(), v.regex(/^\d+$/, 'must be a non-negative integer'), v.transform(Number))

/** `page` (from 1) and `limit` as query entries, with the list's default limit. */
export function pagingEntries(defaultLimit: number) {
  return {
    page: v.optional(v.pipe(integerText, v.minValue(1, 'must be at least 1')), '1'),
    limit: v.optional(v.pipe(integerText, v.minValue(1, 'must be at least 1'), v.maxValue(MAX_LIMIT, `must be at most ${MAX_LIMIT}`)), String(defaultLimit)),
  }
}

/** The `meta` of a page as this server writes it. */
export interface PageMeta {
  page: number
  limit: number
  count: number
  hasnext: boolean
}

export interface Page<T> {
  data: T[]
  meta: PageMeta
}

/**
 * The envelope as the browser reads it, from this server or a real EMQX: `count` may be absent
 * (EMQX leaves it out of filtered and cursor pages), cursor pages carry `position` instead of `page`.
 */
export function paged<T extends v.GenericSchema>(item: T) {
  return v.object({
    data: v.array(item),
    meta: v.object({
      page: v.optional(v.number()),
      limit: v.number(),
      count: v.optional(v.number()),
      hasnext: v.boolean(),
      position: v.optional(v.string()),
    }),
  })
}
