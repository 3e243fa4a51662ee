// A list's selected rows (x or Space) for its bulk buttons and the palette: while rows are selected,
// commands taking `field` act on them (useTableSelection), and `runOnSelected(command)` runs one
// command over them with one confirmation, unselecting the rows it succeeded for.
import { useCallback, useMemo } from 'react'
import type { ArgsSchema, Command } from '../../commands/define.ts'
import { useRunBulk } from '../app/commands/useRunCommand.ts'
import { useTableSelection, type TableSelection } from '../state/commandContext.ts'
import { useRowSelection } from './useRowSelection.ts'

/** `key` (stable) gives a row's value of the commands' argument `field`; `entity` is the i18n key naming the rows. */
export function useBulkSelection<T>(data: readonly T[], key: (row: T) => string, field: string, entity: string) {
  const { selection, setSelection, selected, unselect } = useRowSelection(data, key)
  const tableSelection = useMemo<TableSelection | null>(
    () => (selected.length === 0 ? null : { field, ids: selected.map(key), entity, onDone: unselect }),
    [selected, unselect, key, field, entity],
  )
  useTableSelection(tableSelection)
  const runBulk = useRunBulk()
  const runOnSelected = useCallback(
    async <S extends ArgsSchema, R>(command: Command<S, R>) => {
      const results = await runBulk(
        command,
        selected.map((row) => ({ key: key(row), args: { [field]: key(row) } })),
      )
      unselect(results.filter((r) => r.result.ok).map((r) => r.key))
    },
    [runBulk, selected, unselect, key, field],
  )
  return { selection, setSelection, selected, runOnSelected }
}
