// Compact tables of a read command's rows, for the terminal pane and the CLI: columns as wide as
// their values but fitted into the width there is (the widest shrink first), long values cut with
// `…`, every control character in a value written out so a client id cannot move the cursor, and a
// row count under them. Headless and pure: the browser and Node render the same text.
import type { Text } from '../define.ts'
import { escapeControl } from './escapeControl.ts'
import { cellWidth, sliceCells } from './width.ts'

/** A read command's answer as a table: named columns of cells, and how many rows exist in all. */
export interface TableData {
  columns: readonly string[]
  rows: readonly (readonly unknown[])[]
  /** Rows the server holds for the query (a page shows fewer); the row count says "N of total". */
  total?: number
}

export interface TableOptions {
  /** Columns of text available. */
  width: number
  /** Bold headers and dim rules (ANSI SGR), for a terminal. */
  colour?: boolean
}

const GAP = 2
/** No column is cut narrower than this (a header may be cut too). */
const MIN_COLUMN = 4
/** A value longer than this is cut even when there is room (a payload, a long SQL). */
const MAX_COLUMN = 48
/** Columns are cut down to this before any is left out (an address, `disconnected`, a time fit). */
const COMFORT_COLUMN = 20

/** One cell as text on one line: strings escaped, objects as JSON, nothing as ''. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return escapeControl(value)
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  return escapeControl(JSON.stringify(value) ?? '')
}

/** Cuts to `width` cells, the last being `…` when anything was cut. */
export function cut(text: string, width: number): string {
  if (cellWidth(text) <= width) return text
  return width <= 1 ? '…'.slice(0, width) : `${sliceCells(text, width - 1)}…`
}

const length = cellWidth

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - length(text)))
}

/**
 * Column widths fitting `width`: the widest columns are cut down to a comfortable width first, then
 * columns are left out from the right (the first ones say what a row is), then cut further. Fewer
 * widths than columns means the rest are not shown.
 */
export function fitWidths(natural: readonly number[], width: number): number[] {
  const widths = natural.map((w) => Math.min(w, MAX_COLUMN))
  const total = () => widths.reduce((sum, w) => sum + w, 0) + GAP * Math.max(0, widths.length - 1)
  const shrink = (floor: number) => {
    while (total() > width) {
      let widest = 0
      for (let i = 1; i < widths.length; i++) if (widths[i] > widths[widest]) widest = i
      if (widths[widest] <= floor) return
      widths[widest]--
    }
  }
  shrink(COMFORT_COLUMN)
  while (total() > width && widths.length > 2) widths.pop()
  shrink(MIN_COLUMN)
  // Room a left-out column freed goes back to the columns that were cut, left to right.
  for (let i = 0; i < widths.length && total() < width; i++)
    widths[i] += Math.min(width - total(), Math.min(natural[i], MAX_COLUMN) - widths[i])
  return widths
}

/** The row count under a table, as an i18n text: `rows: 3`, `rows: 10 of 120`. */
export function rowCount(table: Pick<TableData, 'rows' | 'total'>): Text {
  const count = table.rows.length
  return table.total !== undefined && table.total > count
    ? { key: 'format.rowsOf', values: { count, total: table.total } }
    : { key: 'format.rows', values: { count } }
}

/** The table as lines (no line ends), the row count last, translated by `translate`. */
export function renderTable(table: TableData, options: TableOptions, translate: (text: Text) => string): string[] {
  const allCells = table.rows.map((row) => table.columns.map((_, i) => cellText(row[i])))
  const allHeaders = table.columns.map((c) => escapeControl(c))
  const natural = allHeaders.map((header, i) => Math.max(length(header), ...allCells.map((row) => length(row[i]))))
  const widths = fitWidths(natural, Math.max(MIN_COLUMN, options.width))
  const headers = allHeaders.slice(0, widths.length)
  const cells = allCells.map((row) => row.slice(0, widths.length))
  const hidden = allHeaders.slice(widths.length)
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => (i === values.length - 1 ? cut(value, widths[i]) : pad(cut(value, widths[i]), widths[i])))
      .join(' '.repeat(GAP))
      .trimEnd()
  const [bold, dim, reset] = options.colour ? ['\x1b[1m', '\x1b[90m', '\x1b[0m'] : ['', '', '']
  const lines = [`${bold}${line(headers)}${reset}`, ...cells.map(line)]
  const count = translate(rowCount(table))
  const left = hidden.length ? ` · ${translate({ key: 'format.hidden', values: { columns: hidden.join(', ') } })}` : ''
  lines.push(`${dim}${cut(count + left, Math.max(MIN_COLUMN, options.width))}${reset}`)
  return lines
}
