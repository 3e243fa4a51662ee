// Reading list screens' URL search params leniently: a hand-edited URL shows the list, not an error.
import { useSearch } from '@tanstack/react-router'
import { useMemo } from 'react'

/** Trimmed text, or undefined when absent or blank (a number, as the router may parse one, becomes text). */
export function searchText(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value)
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/** A whole number of at least `min`, or undefined (blank is not 0). */
export function searchInt(value: unknown, min = 1): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN
  return Number.isInteger(n) && n >= min ? n : undefined
}

/** The current search parsed by `parse`; the same object for as long as the parsed values are equal. */
export function useParsedSearch<T>(parse: (raw: Record<string, unknown>) => T): T {
  const raw: Record<string, unknown> = useSearch({ strict: false })
  const key = JSON.stringify(parse(raw))
  return useMemo(() => JSON.parse(key) as T, [key])
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

/** As searchPaging, and `limit=all` (the whole list, read by the list-all helper) kept as 'all' without a page. */
export function searchPagingOrAll(raw: Record<string, unknown>, defaultLimit: number): { page?: number; limit?: number | 'all' } {
  return raw.limit === 'all' ? { limit: 'all' } : searchPaging(raw, defaultLimit)
}

/** The URL of a list filtered by one topic (topics, retained messages): `topic`, `page`, `limit`. */
export interface TopicListSearch {
  topic?: string
  page?: number
  limit?: number
}

/** A parser for such a URL with the list's default page size, for useParsedSearch. */
export function topicListSearch(defaultLimit: number): (raw: Record<string, unknown>) => TopicListSearch {
  return (raw) => {
    const out: TopicListSearch = {}
    const topic = searchText(raw.topic)
    if (topic) out.topic = topic
    return Object.assign(out, searchPaging(raw, defaultLimit))
  }
}
