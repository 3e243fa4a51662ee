// The table's key map: which action a key runs (Shift picks the range action), and the `?` sheet
// listing exactly the map DataTable runs.
import { describe, expect, it } from 'vitest'
import { shortcutGroups } from '../src/app/help/ShortcutSheet.tsx'
import { findTableKey, strokeLabel, tableKeyMap, type TableKeyTarget } from '../src/ui/tableKeys.ts'

const key = (k: string, shiftKey = false) => findTableKey({ key: k, shiftKey })?.action.description

function target(overrides: Partial<TableKeyTarget> = {}) {
  const moves: number[] = []
  const t: TableKeyTarget = {
    active: 3,
    rowCount: 10,
    pageRows: 4,
    moveTo: (index) => void moves.push(index),
    open: () => true,
    toggle: () => true,
    clearSelection: () => false,
    focusFilter: () => true,
    ...overrides,
  }
  return { t, moves }
}

describe('the table key map', () => {
  it('finds the action of a key, with Shift choosing the range selection', () => {
    expect(key('j')).toBe('help.table.down')
    expect(key('ArrowDown', true)).toBe('help.table.down')
    expect(key('K')).toBe('help.table.up')
    expect(key('x')).toBe('help.table.select')
    expect(key(' ')).toBe('help.table.select')
    expect(key('X', true)).toBe('help.table.selectRange')
    expect(key(' ', true)).toBe('help.table.selectRange')
    expect(key('/')).toBe('help.table.filter')
    expect(key('q')).toBeUndefined()
  })

  it('moves the active row by one, a page, or to either end', () => {
    const { t, moves } = target()
    for (const [k] of [['j'], ['k'], ['PageDown'], ['PageUp'], ['Home'], ['End']]) {
      const found = findTableKey({ key: k, shiftKey: false })!
      expect(found.action.run(t, found.stroke)).toBe(true)
    }
    expect(moves).toEqual([4, 2, 7, -1, 0, 9])
  })

  it('leaves Escape to others when nothing is selected', () => {
    const found = findTableKey({ key: 'Escape', shiftKey: false })!
    expect(found.action.run(target().t, found.stroke)).toBe(false)
  })

  it('is what the ? sheet lists under Tables, every visible action once', () => {
    const tables = shortcutGroups().find((group) => group.heading === 'help.tables')!
    const visible = tableKeyMap.filter((action) => action.visible !== false)
    expect(tables.rows.map((row) => row.label)).toEqual(visible.map((action) => action.description))
    expect(tables.rows.find((row) => row.label === 'help.table.down')?.keys).toEqual([[['↓']], [['J']]])
    expect(strokeLabel({ key: 'x', shift: true })).toEqual(['Shift', 'X'])
  })
})
