// The table's keys as one map, as k9s keeps a view's key actions: each key's strokes, what it does
// (an i18n key), its handler, and whether it is dangerous or shown. DataTable runs the map; the `?`
// sheet lists it, so the keys and their help cannot drift apart. No React here.

/** One stroke: KeyboardEvent.key (letters in lower case) and whether Shift is part of it. */
export interface TableStroke {
  key: string
  shift?: boolean
}

/** What a key action may do to the table it runs in. */
export interface TableKeyTarget {
  /** The active row's index, -1 when none. */
  active: number
  rowCount: number
  /** Rows in one screenful. */
  pageRows: number
  moveTo(index: number): void
  /** Opens the active row; false when there is none or rows do not open. */
  open(): boolean
  /** Toggles the active row's selection, or with `range` the rows since the last toggled one; false when rows cannot be selected. */
  toggle(range: boolean): boolean
  /** Clears the selection; false when nothing was selected (Escape then belongs to a dialog above). */
  clearSelection(): boolean
  /** Focuses the screen's filter field; false when it has none. */
  focusFilter(): boolean
}

export interface TableKeyAction {
  /** Alternatives: any of these runs the action. */
  strokes: readonly TableStroke[]
  /** i18n key of what it does, for the `?` sheet. */
  description: string
  /** Runs the action; false: the key was not for the table after all (it goes on to others). */
  run(target: TableKeyTarget, stroke: TableStroke): boolean
  /** On the whole page, not only while the table has focus (`/` to the filter). */
  page?: boolean
  /** Pressed with nothing focused, moves focus into the page's main table (as on GitHub lists). */
  enters?: boolean
  /** Changes or removes data: the sheet marks it. */
  danger?: boolean
  /** Listed on the `?` sheet (default true). */
  visible?: boolean
}

const move = (by: (target: TableKeyTarget) => number) => (target: TableKeyTarget) => (target.moveTo(by(target)), true)

export const tableKeyMap: readonly TableKeyAction[] = [
  { strokes: [{ key: 'ArrowDown' }, { key: 'j' }], description: 'help.table.down', enters: true, run: move((t) => t.active + 1) },
  { strokes: [{ key: 'ArrowUp' }, { key: 'k' }], description: 'help.table.up', enters: true, run: move((t) => (t.active < 0 ? 0 : t.active - 1)) },
  {
    strokes: [{ key: 'Home' }, { key: 'End' }],
    description: 'help.table.ends',
    run: (target, stroke) => (target.moveTo(stroke.key === 'Home' ? 0 : target.rowCount - 1), true),
  },
  {
    strokes: [{ key: 'PageUp' }, { key: 'PageDown' }],
    description: 'help.table.page',
    run: (target, stroke) => (target.moveTo(target.active + (stroke.key === 'PageUp' ? -target.pageRows : target.pageRows)), true),
  },
  { strokes: [{ key: 'Enter' }], description: 'help.table.open', run: (target) => target.open() },
  { strokes: [{ key: 'x' }, { key: ' ' }], description: 'help.table.select', run: (target) => target.toggle(false) },
  { strokes: [{ key: 'x', shift: true }, { key: ' ', shift: true }], description: 'help.table.selectRange', run: (target) => target.toggle(true) },
  { strokes: [{ key: 'Escape' }], description: 'help.table.clear', run: (target) => target.clearSelection() },
  { strokes: [{ key: '/' }], description: 'help.table.filter', page: true, run: (target) => target.focusFilter() },
]

type KeyEvent = Pick<KeyboardEvent, 'key' | 'shiftKey'>

function sameKey(stroke: TableStroke, event: KeyEvent): boolean {
  return stroke.key.length === 1 ? stroke.key === event.key.toLowerCase() : stroke.key === event.key
}

/**
 * The action and stroke an event runs. A stroke with Shift wins when Shift is held (Shift+x selects
 * a range, x one row); a stroke without Shift takes the key with or without it (Shift+↓ moves).
 */
export function findTableKey(
  event: KeyEvent,
  map: readonly TableKeyAction[] = tableKeyMap,
): { action: TableKeyAction; stroke: TableStroke } | undefined {
  for (const shifted of event.shiftKey ? [true, false] : [false]) {
    for (const action of map) {
      const stroke = action.strokes.find((s) => Boolean(s.shift) === shifted && sameKey(s, event))
      if (stroke) return { action, stroke }
    }
  }
  return undefined
}

const KEY_LABELS: Record<string, string> = { ArrowDown: '↓', ArrowUp: '↑', Escape: 'Esc', ' ': 'Space' }

/** The keys to draw for a stroke: `Shift`, `X`. */
export function strokeLabel(stroke: TableStroke): string[] {
  const key = KEY_LABELS[stroke.key] ?? (stroke.key.length === 1 ? stroke.key.toUpperCase() : stroke.key)
  return stroke.shift ? ['Shift', key] : [key]
}
