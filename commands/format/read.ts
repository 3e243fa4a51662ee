// A read command: it changes nothing, and its answer is printed as a compact table (the terminal
// pane) or as the raw rows (the CLI's --json). Each area declares its own in its commands file.
import * as v from 'valibot'
import type { ArgsSchema, Command } from '../define.ts'
import { rowCount, type TableData } from './table.ts'

/** Columns by name and how to read each from a row. */
export type Columns<Row> = readonly (readonly [name: string, cell: (row: Row) => unknown])[]

export function tableOf<Row>(columns: Columns<Row>, rows: readonly Row[], total?: number): TableData {
  return { columns: columns.map(([name]) => name), rows: rows.map((row) => columns.map(([, cell]) => cell(row))), ...(total !== undefined ? { total } : {}) }
}

/** A paged answer (`{data, meta: {count}}`) as a table; the count says how many the server holds. */
export function pagedTable<Row>(columns: Columns<Row>) {
  return (page: { data: readonly Row[]; meta: { count?: number | undefined } }): TableData => tableOf(columns, page.data, page.meta.count)
}

/** A read command: read-only, its result a table, the terminal line saying how many rows. */
export function defineRead<S extends ArgsSchema, R>(command: Omit<Command<S, R>, 'readOnly' | 'resultText' | 'table'> & { table(result: R): TableData }): Command<S, R> {
  return { ...command, readOnly: true, resultText: (result) => rowCount(command.table(result)) }
}

/** Epoch milliseconds or RFC 3339 as `2024-01-02 03:04:05` (UTC), short enough for a column. */
export function shortTime(value: unknown): string {
  if (value === undefined || value === null || value === '' || value === 'infinity') return value === 'infinity' ? '∞' : ''
  const ms = typeof value === 'number' ? value : Date.parse(String(value))
  if (!Number.isFinite(ms)) return String(value)
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, 'Z')
}

/** The page and page size every paged read takes (EMQX's defaults when left out: 1 and 100). */
export const pageArgs = () => ({
  page: v.optional(v.pipe(v.number('err.number'), v.title('filter.page'), v.integer('err.integer'), v.minValue(1))),
  limit: v.optional(v.pipe(v.number('err.number'), v.title('filter.limit'), v.integer('err.integer'), v.minValue(1), v.maxValue(10000))),
})

/** A filter typed as text, labelled `filter.<name>`; left out, it does not filter. */
export const textFilter = (name: string) => v.optional(v.pipe(v.string(), v.title(`filter.${name}`), v.trim(), v.minLength(1, 'err.required')))

/** A filter choosing one of a few values (`conn_state`, `qos`). */
export const choiceFilter = <const T extends readonly (string | number)[]>(name: string, options: T) =>
  v.optional(v.pipe(v.picklist(options, 'err.oneOf'), v.title(`filter.${name}`)))

/** A yes-or-no filter, with its default when it has one (`alarms.list activated=false`). */
export const booleanFilter = (name: string) => v.optional(v.pipe(v.boolean('err.boolean'), v.title(`filter.${name}`)))
