// A table's selected rows by key: the selection state DataTable takes, the rows of `data` it
// selects, and `unselect` for the rows an action is done with. `key` must be stable.
import { useCallback, useMemo, useState } from 'react'
import type { RowSelectionState } from './DataTable.tsx'

export function useRowSelection<T>(data: readonly T[], key: (row: T) => string) {
  const [selection, setSelection] = useState<RowSelectionState>({})
  const unselect = useCallback((keys: readonly string[]) => {
    if (keys.length === 0) return
    setSelection((current) => {
      const next = { ...current }
      for (const k of keys) delete next[k]
      return next
    })
  }, [])
  const selected = useMemo(() => data.filter((row) => selection[key(row)]), [data, selection, key])
  return { selection, setSelection, selected, unselect }
}
