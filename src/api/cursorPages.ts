// Numbered pages over a list EMQX pages by cursor (GET /clients_v2). The cursor that starts each page
// is remembered as pages are read, per view (filters and page size), so the next or previous page is
// one request and a jump ahead (a pasted link) walks the pages in between.

export interface CursorPage<T> {
  data: T[]
  /** Where the next page starts; absent on the last page. */
  cursor?: string
}

export interface NumberedPage<T> {
  data: T[]
  hasnext: boolean
}

/** How many views' cursors are kept (the list screen's recent filters). */
const VIEWS_KEPT = 8

export function cursorPages<T>() {
  /** view → starts[i] is the cursor of page i + 1 (undefined for the first page). */
  const starts = new Map<string, Array<string | undefined>>()

  return async function read(view: string, page: number, fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>): Promise<NumberedPage<T>> {
    const known = starts.get(view) ?? [undefined]
    starts.delete(view)
    starts.set(view, known)
    if (starts.size > VIEWS_KEPT) starts.delete(starts.keys().next().value!)
    for (let current = Math.min(page, known.length); ; current++) {
      const result = await fetchPage(known[current - 1])
      if (result.cursor) known[current] = result.cursor
      else known.length = current
      if (current === page) return { data: result.data, hasnext: result.cursor !== undefined }
      // The list ended before the page asked for: that page is empty.
      if (!result.cursor) return { data: [], hasnext: false }
    }
  }
}
