// What the screen in view tells the palette: argument defaults (a client's detail page makes
// client commands default to that client) and the rows selected in its table (commands taking
// that entity then apply to every selected row). Screens set it with the hooks below while
// mounted; the palette reads it.
import { atom, useSetAtom } from 'jotai'
import { useEffect } from 'react'

export interface TableSelection {
  /** The argument the selected rows fill, e.g. `clientid`. */
  field: string
  /** The selected rows' values for that argument, in table order. */
  ids: string[]
  /** i18n key naming the rows (plural), e.g. `clients.title`. */
  entity: string
  /** Told which rows a bulk run succeeded for (the table unselects them). */
  onDone?(succeeded: string[]): void
}

export const commandDefaultsAtom = atom<Readonly<Record<string, string>>>({})
export const tableSelectionAtom = atom<TableSelection | null>(null)

/** While the calling screen is mounted, arguments with these names start with these values. */
export function useCommandDefaults(defaults: Record<string, string> | null): void {
  const set = useSetAtom(commandDefaultsAtom)
  const key = defaults ? JSON.stringify(defaults) : ''
  useEffect(() => {
    if (!key) return
    set(JSON.parse(key) as Record<string, string>)
    return () => set({})
  }, [key, set])
}

/** While the calling screen is mounted and rows are selected, commands apply to them. */
export function useTableSelection(selection: TableSelection | null): void {
  const set = useSetAtom(tableSelectionAtom)
  useEffect(() => {
    set(selection && selection.ids.length ? selection : null)
  }, [selection, set])
  useEffect(() => () => set(null), [set])
}

/** Values for a command's argument form: the screen's defaults fill the fields that are still empty. */
export function withDefaults(values: Record<string, string>, fieldNames: readonly string[], defaults: Readonly<Record<string, string>>): Record<string, string> {
  const next = { ...values }
  for (const name of fieldNames) if (!next[name] && defaults[name] !== undefined) next[name] = defaults[name]
  return next
}

/** The selection applies to a command when it takes the selected entity's argument. */
export function bulkField(fieldNames: readonly string[], selection: TableSelection | null): string | undefined {
  return selection && selection.ids.length > 0 && fieldNames.includes(selection.field) ? selection.field : undefined
}
