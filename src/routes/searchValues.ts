// A list screen's URL, read through its API module's query schema (`clientsSearch` in
// src/api/clients.ts) one field at a time: a value that does not fit is dropped, so a hand-edited
// URL shows the list, not an error. The page and page size stay in the URL only when they are not
// the defaults, so links stay short.
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useCallback, useMemo } from 'react'
import * as v from 'valibot'
import { queryInt, queryText } from '../api/listQuery.ts'
import { topicsSearch } from '../api/topics.ts'

/** A list's query schema: an object of optional fields, `page` and `limit` among them. */
export type SearchSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>

/** What a list URL holds: the schema's filters, the page, and the page size (or 'all' where offered). */
export type ListSearch<S extends SearchSchema> = Omit<v.InferOutput<S>, 'page' | 'limit'> & { page?: number; limit?: number | 'all' }

export interface ListSearchOptions {
  /** The list's page size when the URL names none. */
  defaultLimit: number
  /** `limit=all` is kept (the whole list, read by the list-all helper). */
  all?: boolean
}

/** One URL value read by a schema piece; undefined when absent or when it does not fit. */
export function searchValue<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> | undefined {
  if (value === undefined) return undefined
  const result = v.safeParse(schema, value)
  return result.success ? result.output : undefined
}

/** Trimmed text, or undefined when absent or blank (a number, as the router may parse one, becomes text). */
export function searchText(value: unknown): string | undefined {
  return searchValue(queryText(), value)
}

/** A whole number of at least `min`, or undefined (blank is not 0). */
export function searchInt(value: unknown, min = 1): number | undefined {
  return searchValue(queryInt(min), value)
}

/** The page (kept only past the first) and page size (kept only when not the default) of a list URL. */
export function searchPaging(raw: Record<string, unknown>, defaultLimit: number): { page?: number; limit?: number } {
  const out: { page?: number; limit?: number } = {}
  const page = searchInt(raw.page)
  if (page && page > 1) out.page = page
  const limit = searchInt(raw.limit)
  if (limit && limit !== defaultLimit) out.limit = limit
  return out
}

/** Reads a list URL (or a filter form's values) through the list's query schema. */
export function readListSearch<S extends SearchSchema>(schema: S, raw: Record<string, unknown>, options: ListSearchOptions): ListSearch<S> {
  const out: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(schema.entries)) {
    if (key === 'page' || key === 'limit') continue
    const value = searchValue(entry, raw[key])
    if (value !== undefined) out[key] = value
  }
  Object.assign(out, options.all && raw.limit === 'all' ? { limit: 'all' } : searchPaging(raw, options.defaultLimit))
  return out as ListSearch<S>
}

/** The topic list's URL reader (`topic`, `page`, `limit`) with the list's default page size. */
export function topicListSearch(defaultLimit: number): (raw: Record<string, unknown>) => ListSearch<typeof topicsSearch> {
  return (raw) => readListSearch(topicsSearch, raw, { defaultLimit })
}

/** The current search parsed by `parse`; the same object for as long as the parsed values are equal. */
export function useParsedSearch<T>(parse: (raw: Record<string, unknown>) => T): T {
  const raw: Record<string, unknown> = useSearch({ strict: false })
  const key = JSON.stringify(parse(raw))
  return useMemo(() => JSON.parse(key) as T, [key])
}

export interface ListSearchState<S extends SearchSchema> {
  search: ListSearch<S>
  /** Shows the list at `to` with these values (read the same way, so a form's text is fine). */
  go(next: object): void
}

/** A list screen's URL at `to`, read through `schema`, and the way to change it. */
export function useListSearch<S extends SearchSchema>(schema: S, to: string, options: ListSearchOptions): ListSearchState<S> {
  const { defaultLimit, all } = options
  const parse = useCallback((raw: Record<string, unknown>) => readListSearch(schema, raw, { defaultLimit, all }), [schema, defaultLimit, all])
  const search = useParsedSearch(parse)
  const navigate = useNavigate()
  // Any object's fields are read by name, as the URL's are.
  const go = useCallback((next: object) => void navigate({ to, search: parse(next as Record<string, unknown>) }), [navigate, to, parse])
  return { search, go }
}
