// The console's list widget: TanStack Table v9 for the model, TanStack Virtual for the rows.
// Only the rows in view are in the DOM, so a page of 100,000 rows scrolls like one of 20.
// Paging, filtering and sorting belong to the server; this renders one page of it.
import {
  columnSizingFeature,
  columnVisibilityFeature,
  constructCell,
  createColumnHelper,
  FlexRender,
  metaHelper,
  rowSelectionFeature,
  tableFeatures,
  useTable,
  type CellData,
  type Column,
  type ColumnDef,
  type ColumnVisibilityState,
  type OnChangeFn,
  type Row,
  type RowData,
  type RowSelectionState,
  type Updater,
} from '@tanstack/react-table'
import { useVirtualizer } from '@tanstack/react-virtual'
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
} from 'react'
import { useTranslation } from 'react-i18next'
import { ColumnChooser, type ChooserColumn } from './ColumnChooser.tsx'
import { findTableKey, type TableKeyTarget } from './tableKeys.ts'
import { displayText } from './escapeControl.ts'
import './data-table.css'

export interface DataTableColumnMeta {
  /** Name in the column chooser when the header is not plain text. */
  label?: string
  align?: 'start' | 'end' | 'center'
  /** Monospace cell text (ids, topics, addresses). */
  mono?: boolean
  /** Digits of equal width (times, counters) without a monospace font. */
  numeric?: boolean
  /** Hidden until the user picks it in the column chooser. */
  hidden?: boolean
  /** Takes the width left over by the other columns. */
  grow?: boolean
  /** Stays in view at the right edge when the table scrolls sideways (row actions). */
  stickyEnd?: boolean
}

export const dataTableFeatures = tableFeatures({
  columnVisibilityFeature,
  rowSelectionFeature,
  columnSizingFeature,
  columnMeta: metaHelper<DataTableColumnMeta>(),
})
export type DataTableFeatures = typeof dataTableFeatures
export type DataTableColumn<T extends RowData> = ColumnDef<DataTableFeatures, T, CellData>
export type DataTableRow<T extends RowData> = Row<DataTableFeatures, T>
export type { RowSelectionState }

/** Column helper typed for DataTable: `const col = dataTableColumns<Client>()`. */
export function dataTableColumns<T extends RowData>() {
  return createColumnHelper<DataTableFeatures, T>()
}

export const PAGE_SIZES = [20, 50, 100, 500] as const

export interface ServerPaging {
  /** 1-based, as EMQX counts. */
  page: number
  pageSize: number
  /** Total rows when the server reports it (`meta.count`); cursor paging may not. */
  count?: number
  /** `meta.hasnext`. */
  hasNext: boolean
  onPageChange(page: number): void
  /** The caller usually goes back to page 1 as well. */
  onPageSizeChange(pageSize: number): void
  pageSizes?: readonly number[]
  /** Offers "All" among the page sizes: the whole list in one table, read by the list-all helper. */
  onShowAll?(): void
  /** The whole list is shown: no pages to step through. */
  all?: boolean
}

export interface DataTableProps<T extends RowData> {
  /** Stable id; the column choice is remembered under it. */
  id: string
  columns: readonly DataTableColumn<T>[]
  data: readonly T[]
  getRowId(row: T): string
  /** Enter or a click on a row. */
  onRowOpen?(row: T): void
  /** Shows selection checkboxes; the caller owns the state (for bulk commands). */
  rowSelection?: RowSelectionState
  onRowSelectionChange?: OnChangeFn<RowSelectionState>
  loading?: boolean
  /** Message of the last failed load; stale rows stay visible under it. */
  error?: string | null
  onRetry?(): void
  paging?: ServerPaging
  /** Left side of the bar above the table (e.g. selection actions). */
  caption?: ReactNode
  /** Right side of the bar, before the column chooser. */
  actions?: ReactNode
  /** Fixed row height in px. */
  rowHeight?: number
  /** CSS max-height of the scrolling area. */
  maxHeight?: string
  /** Accessible name of the grid. */
  label?: string
  /** Overrides the empty text ('No data'). */
  emptyText?: ReactNode
  /** The screen's filter field: `/` focuses it. */
  filterRef?: RefObject<HTMLElement | null>
  /**
   * The screen's main table: j, k and the arrows move into it when nothing else has focus (as on
   * GitHub lists), and `/` works from anywhere on the page.
   */
  pageKeys?: boolean
  /** Makes this row the active one and scrolls it into view (e.g. 'already there: here it is'); a new `focusKey` repeats it. */
  focusRowId?: string
  focusKey?: number
}

/** Typing in a field or a dialog being open: the page's single-key shortcuts stay off. */
function keysBlocked(target: EventTarget | null): boolean {
  if (document.querySelector('[aria-modal="true"]')) return true
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target.classList.contains('xterm-helper-textarea')) return false
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

const HEADER_HEIGHT = 36
const SELECT_COLUMN = '__select'
/** A column without its own cell shows its value as text, control characters escaped. */
const DEFAULT_COLUMN: Partial<DataTableColumn<RowData>> = { cell: (props) => displayText(props.renderValue()) }

function storageKey(id: string) {
  return `dataTable:${id}:columns`
}

function readStoredVisibility(id: string): ColumnVisibilityState | null {
  try {
    const raw = globalThis.localStorage?.getItem(storageKey(id))
    if (!raw) return null
    const parsed: unknown = JSON.parse(raw)
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null
    const out: ColumnVisibilityState = {}
    for (const [key, value] of Object.entries(parsed)) if (typeof value === 'boolean') out[key] = value
    return out
  } catch {
    return null
  }
}

function writeStoredVisibility(id: string, state: ColumnVisibilityState | null) {
  try {
    if (state === null) globalThis.localStorage?.removeItem(storageKey(id))
    else globalThis.localStorage?.setItem(storageKey(id), JSON.stringify(state))
  } catch {
    // Storage full or disabled: the choice lasts for this page only.
  }
}

function columnId<T extends RowData>(column: DataTableColumn<T>): string {
  if (column.id) return column.id
  if ('accessorKey' in column && typeof column.accessorKey === 'string') return column.accessorKey
  return ''
}

function defaultVisibility<T extends RowData>(columns: readonly DataTableColumn<T>[]): ColumnVisibilityState {
  const out: ColumnVisibilityState = {}
  for (const column of columns) if (column.meta?.hidden) out[columnId(column)] = false
  return out
}

/** Column visibility: column defaults, overlaid by the user's stored choice for this table id. */
function useColumnVisibility<T extends RowData>(id: string, columns: readonly DataTableColumn<T>[]) {
  const defaults = useMemo(() => defaultVisibility(columns), [columns])
  const [stored, setStored] = useState<ColumnVisibilityState | null>(() => readStoredVisibility(id))
  const visibility = useMemo(() => ({ ...defaults, ...stored }), [defaults, stored])

  const onChange = useCallback(
    (updater: Updater<ColumnVisibilityState>) => {
      setStored((previous) => {
        const current = { ...defaults, ...previous }
        const next = typeof updater === 'function' ? updater(current) : updater
        writeStoredVisibility(id, next)
        return next
      })
    },
    [defaults, id],
  )
  const reset = useCallback(() => {
    writeStoredVisibility(id, null)
    setStored(null)
  }, [id])
  return { visibility, onChange, reset }
}

/**
 * The rows to render: the virtualizer's window, widened to the longest it has been so its length
 * stays put, in the order of their keys (index modulo that length). A row that scrolls out is then
 * reused for the one that scrolls in: React updates its text and moves nothing (rows are placed
 * absolutely; aria-rowindex gives assistive technology the order), so scrolling, even a jump,
 * creates and moves no elements. Creating or moving ~100 rows a frame made Chromium's style
 * recalculation the largest cost of a frame, growing until the next garbage collection
 * (npm run bench -- subscriptions).
 */
function useStableWindow(items: readonly { index: number }[], count: number): { indexes: number[]; length: number } {
  const longest = useRef(0)
  longest.current = Math.min(count, Math.max(longest.current, items.length))
  const length = Math.max(1, longest.current)
  const first = Math.max(0, Math.min(items[0]?.index ?? 0, count - length))
  const indexes: number[] = []
  for (let index = first; index < Math.min(count, first + length); index++) indexes.push(index)
  indexes.sort((a, b) => (a % length) - (b % length))
  return { indexes, length }
}

/** Whether content `width` px wide overflows the element sideways (kept up to date as it resizes). */
function useWiderThan(ref: RefObject<HTMLElement | null>, width: number): boolean {
  const [wide, setWide] = useState(false)
  useLayoutEffect(() => {
    const element = ref.current
    if (!element) return
    const check = () => setWide(width > element.clientWidth)
    check()
    const observer = new ResizeObserver(check)
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref, width])
  return wide
}

function isInteractive(target: EventTarget | null, boundary: Element): boolean {
  if (!(target instanceof Element)) return false
  const hit = target.closest('a, button, input, select, textarea, label, [data-row-action]')
  return hit !== null && boundary.contains(hit) && hit !== boundary
}

export function DataTable<T extends RowData>(props: DataTableProps<T>) {
  const {
    id,
    columns,
    data,
    getRowId,
    onRowOpen,
    rowSelection,
    onRowSelectionChange,
    loading = false,
    error = null,
    onRetry,
    paging,
    caption,
    actions,
    rowHeight = 36,
    maxHeight = 'calc(100vh - 280px)',
    label,
    emptyText,
    filterRef,
    pageKeys = false,
    focusRowId,
    focusKey,
  } = props
  const { t } = useTranslation()
  const domId = useId()
  const selectable = rowSelection !== undefined && onRowSelectionChange !== undefined

  const allColumns = useMemo<readonly DataTableColumn<T>[]>(() => {
    if (!selectable) return columns
    const select: DataTableColumn<T> = {
      id: SELECT_COLUMN,
      size: 40,
      enableHiding: false,
      meta: { label: t('table.selection'), align: 'center' },
      header: ({ table }) => (
        <Checkbox
          label={t('table.selectAll')}
          checked={table.getIsAllPageRowsSelected()}
          indeterminate={table.getIsSomePageRowsSelected()}
          onChange={table.getToggleAllPageRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <Checkbox label={t('table.selectRow')} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />
      ),
    }
    return [select, ...columns]
  }, [columns, selectable, t])

  const visibility = useColumnVisibility(id, columns)
  const [ownSelection, setOwnSelection] = useState<RowSelectionState>({})

  const table = useTable({
    features: dataTableFeatures,
    columns: allColumns,
    defaultColumn: DEFAULT_COLUMN as Partial<DataTableColumn<T>>,
    data,
    getRowId: (row) => getRowId(row),
    enableRowSelection: selectable,
    state: { columnVisibility: visibility.visibility, rowSelection: rowSelection ?? ownSelection },
    onColumnVisibilityChange: visibility.onChange,
    onRowSelectionChange: onRowSelectionChange ?? setOwnSelection,
  })

  const rows = table.getRowModel().rows
  const visibleColumns = table.getVisibleLeafColumns()
  const gridTemplateColumns = visibleColumns
    .map((column) => (column.columnDef.meta?.grow ? `minmax(${column.getSize()}px, 1fr)` : `${column.getSize()}px`))
    .join(' ')
  const minWidth = visibleColumns.reduce((sum, column) => sum + column.getSize(), 0)

  const scrollRef = useRef<HTMLDivElement>(null)
  const wide = useWiderThan(scrollRef, minWidth)
  // Stable callbacks: a new getItemKey makes the virtualizer re-measure every row on each render.
  const getScrollElement = useCallback(() => scrollRef.current, [])
  const estimateSize = useCallback(() => rowHeight, [rowHeight])
  const getItemKey = useCallback((index: number) => rows[index]?.id ?? index, [rows])
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    overscan: 12,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  })

  // Keyboard focus is one active row (aria-activedescendant), so it survives virtualization.
  const [active, setActive] = useState(-1)
  const activeIndex = Math.min(active, rows.length - 1)
  const moveTo = useCallback(
    (index: number) => {
      if (rows.length === 0) return
      const next = Math.max(0, Math.min(rows.length - 1, index))
      setActive(next)
      virtualizer.scrollToIndex(next, { align: 'auto' })
    },
    [rows.length, virtualizer],
  )
  useEffect(() => {
    if (focusRowId === undefined) return
    const index = rows.findIndex((row) => row.id === focusRowId)
    if (index >= 0) moveTo(index)
    // Only a new target (or a new request for the same one) moves the active row, not new data.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRowId, focusKey])
  const pageRows = Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? 400) - HEADER_HEIGHT) / rowHeight))
  // Where a Shift+x range starts: the row last toggled.
  const anchor = useRef(-1)

  // What the key map (./tableKeys.ts) acts on; rebuilt each render so it sees the current rows.
  const keyTarget: TableKeyTarget = {
    active: activeIndex,
    rowCount: rows.length,
    pageRows,
    moveTo,
    open() {
      const row = rows[activeIndex]
      if (!row || !onRowOpen) return false
      onRowOpen(row.original)
      return true
    },
    toggle(range) {
      const current = activeIndex
      const row = rows[current]
      if (!row || !selectable) return false
      if (range && anchor.current >= 0 && anchor.current !== current) {
        // The rows from the last toggled one to here take that row's new state.
        const on = rows[anchor.current]?.getIsSelected() ?? true
        const [from, to] = anchor.current < current ? [anchor.current, current] : [current, anchor.current]
        table.setRowSelection((old) => {
          const next = { ...old }
          for (let i = from; i <= to; i++) {
            const id = rows[i]?.id
            if (id === undefined) continue
            if (on) next[id] = true
            else delete next[id]
          }
          return next
        })
      } else row.toggleSelected()
      anchor.current = current
      return true
    },
    clearSelection() {
      if (!selectable || Object.keys(rowSelection ?? {}).length === 0) return false
      table.resetRowSelection(true)
      return true
    },
    focusFilter() {
      const filter = filterRef?.current
      if (!filter) return false
      filter.focus()
      if (filter instanceof HTMLInputElement) filter.select()
      return true
    },
  }
  const keyTargetRef = useRef(keyTarget)
  useLayoutEffect(() => {
    keyTargetRef.current = keyTarget
  })

  // Page-wide keys of the main table: the map's page keys (`/` to the filter) from anywhere, and
  // its moves (j, k, arrows) into the table from nowhere.
  useEffect(() => {
    if (!pageKeys && !filterRef) return
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return
      if (keysBlocked(event.target)) return
      const found = findTableKey(event)
      if (!found) return
      if (found.action.page) {
        if (found.action.run(keyTargetRef.current, found.stroke)) event.preventDefault()
        return
      }
      const nowhere = event.target === document.body || event.target === document.documentElement || event.target === null
      if (pageKeys && nowhere && found.action.enters && scrollRef.current) {
        event.preventDefault()
        scrollRef.current.focus()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [pageKeys, filterRef])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return
    if (event.altKey || event.ctrlKey || event.metaKey) return
    const found = findTableKey(event)
    if (!found || found.action.page || !found.action.run(keyTarget, found.stroke)) return
    event.preventDefault()
    event.stopPropagation()
  }

  // Rows are memoized; they get one stable click handler that reads the latest onRowOpen.
  const openRef = useRef(onRowOpen)
  useLayoutEffect(() => {
    openRef.current = onRowOpen
  })
  const onRowClick = useCallback((event: MouseEvent<HTMLDivElement>, row: DataTableRow<T>, index: number) => {
    setActive(index)
    if (isInteractive(event.target, event.currentTarget)) return
    // A drag to select text is not a click to open.
    if (globalThis.getSelection?.()?.toString()) return
    openRef.current?.(row.original)
  }, [])

  // What only columns, visibility or selection change stays the same element while the table
  // scrolls, so a scroll frame renders the rows and nothing else (bar, header, pager).
  const allLeafColumns = table.getAllLeafColumns()
  const chooserColumns = useMemo<ChooserColumn[]>(
    () =>
      allLeafColumns
        .filter((column) => column.id !== SELECT_COLUMN)
        .map((column) => {
          const header = column.columnDef.header
          return {
            id: column.id,
            label: column.columnDef.meta?.label ?? (typeof header === 'string' ? header : column.id),
            visible: column.getIsVisible(),
            canHide: column.getCanHide(),
          }
        }),
    // Visibility is read from the columns: a new choice is a new state object.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [allLeafColumns, visibility.visibility],
  )
  // useTable returns a new object on every render (its options are new): callbacks and the kept
  // header read the latest through this ref instead of depending on it.
  const tableRef = useRef(table)
  useLayoutEffect(() => {
    tableRef.current = table
  })
  const onChooserToggle = useCallback((columnId: string, visible: boolean) => tableRef.current.getColumn(columnId)?.toggleVisibility(visible), [])
  const headerGroups = table.getHeaderGroups()
  const currentSelection = rowSelection ?? ownSelection
  const header = useMemo(
    () =>
      headerGroups.map((group) => (
        <div key={group.id} className="dt-row dt-head" role="row" aria-rowindex={1} style={{ gridTemplateColumns, height: HEADER_HEIGHT }}>
          {group.headers.map((header) => (
            <div
              key={header.id}
              role="columnheader"
              className={cellClass(header.column.columnDef.meta, true)}
              title={header.column.columnDef.meta?.label}
            >
              {header.isPlaceholder ? null : <FlexRender header={header} />}
            </div>
          ))}
        </div>
      )),
    // The select-all checkbox reads the selection and the rows from the table.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [headerGroups, gridTemplateColumns, currentSelection, rows],
  )

  const selectedCount = selectable ? Object.keys(rowSelection).length : 0
  const items = virtualizer.getVirtualItems()
  const windowRows = useStableWindow(items, rows.length)
  const activeRowId = activeIndex >= 0 && rows[activeIndex] ? `${domId}-row-${activeIndex}` : undefined
  const showBody = rows.length > 0

  useEffect(() => {
    // A new page starts at the top.
    scrollRef.current?.scrollTo({ top: 0 })
    setActive(-1)
  }, [paging?.page, paging?.pageSize])

  return (
    <div className="dt" data-table-id={id}>
      <div className="dt-bar">
        <div className="dt-bar-start">
          {selectedCount > 0 ? (
            <span className="dt-selected">
              {t('table.selected', { count: selectedCount })}
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => table.resetRowSelection(true)}>
                {t('table.clearSelection')}
              </button>
            </span>
          ) : null}
          {caption}
        </div>
        <div className="dt-bar-end">
          {actions}
          <MemoColumnChooser columns={chooserColumns} onToggle={onChooserToggle} onReset={visibility.reset} />
        </div>
      </div>

      {error && showBody ? (
        <div className="dt-banner" role="alert">
          <span>{error}</span>
          {onRetry ? (
            <button type="button" className="btn btn-ghost btn-sm" onClick={onRetry}>
              {t('table.retry')}
            </button>
          ) : null}
        </div>
      ) : null}

      <div
        ref={scrollRef}
        className={`dt-scroll${loading ? ' is-loading' : ''}${wide ? ' is-wide' : ''}`}
        style={{ maxHeight }}
        role="grid"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-busy={loading}
        aria-multiselectable={selectable || undefined}
        aria-activedescendant={activeRowId}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onScroll={markScrolledToEnd}
        onFocus={(event) => {
          if (event.target === event.currentTarget && activeIndex < 0 && rows.length > 0) setActive(0)
        }}
      >
        <div className="dt-inner" style={{ minWidth }}>
          {header}

          {showBody ? (
            <div className="dt-body" role="rowgroup" style={{ height: virtualizer.getTotalSize() }} onPointerOver={showCellTitle}>
              {windowRows.indexes.map((index) => {
                const row = rows[index]
                if (!row) return null
                return (
                  <BodyRow
                    key={index % windowRows.length}
                    row={row}
                    index={index}
                    domId={index === activeIndex ? `${domId}-row-${index}` : undefined}
                    offset={index * rowHeight}
                    height={rowHeight}
                    gridTemplateColumns={gridTemplateColumns}
                    columns={visibleColumns}
                    active={index === activeIndex}
                    selected={selectable ? row.getIsSelected() : undefined}
                    openable={onRowOpen !== undefined}
                    onClick={onRowClick}
                  />
                )
              })}
            </div>
          ) : (
            <div className="dt-state" role="row">
              <div role="gridcell">
                {error ? (
                  <div className="dt-error" role="alert">
                    <div>{error}</div>
                    {onRetry ? (
                      <button type="button" className="btn btn-sm" onClick={onRetry}>
                        {t('table.retry')}
                      </button>
                    ) : null}
                  </div>
                ) : loading ? (
                  <span className="muted">{t('table.loading')}</span>
                ) : (
                  <span className="muted">{emptyText ?? t('table.noData')}</span>
                )}
              </div>
            </div>
          )}
        </div>
      </div>

      {paging ? <MemoPager paging={paging} rowsOnPage={rows.length} /> : null}
    </div>
  )
}

interface BodyRowProps<T extends RowData> {
  row: DataTableRow<T>
  index: number
  /** Only the active row has an id: the one aria-activedescendant names (an id that changes restyles the row). */
  domId: string | undefined
  offset: number
  height: number
  gridTemplateColumns: string
  /** The visible columns; a new array means cells must render again. */
  columns: readonly Column<DataTableFeatures, T, unknown>[]
  active: boolean
  selected: boolean | undefined
  openable: boolean
  onClick(event: MouseEvent<HTMLDivElement>, row: DataTableRow<T>, index: number): void
}

/** One body row. Memoized: scrolling re-renders only the rows that enter the view. */
const BodyRow = memo(function BodyRow<T extends RowData>(props: BodyRowProps<T>) {
  const { row, index, selected, active, openable } = props
  return (
    <div
      id={props.domId}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`dt-row${active ? ' is-active' : ''}${selected ? ' is-selected' : ''}${openable ? ' is-openable' : ''}`}
      style={{ gridTemplateColumns: props.gridTemplateColumns, height: props.height, transform: `translateY(${props.offset}px)` }}
      onClick={(event) => props.onClick(event, row, index)}
    >
      {props.columns.map((column) => {
        // A cell made for this render rather than row.getVisibleCells(): the table caches those on
        // the row for good, ~2 KB a row once 100,000 rows have been scrolled past.
        const cell = constructCell(column, row, row.table)
        return (
          <div
            key={column.id}
            role="gridcell"
            className={cellClass(cell.column.columnDef.meta)}
          >
            <FlexRender cell={cell} />
          </div>
        )
      })}
    </div>
  )
}) as <T extends RowData>(props: BodyRowProps<T>) => ReactNode

/**
 * A cell's full text as its tooltip, set when the pointer comes over it rather than on every
 * render: a title that changes makes Chromium restyle the cell, which on a fast scroll through
 * recycled rows cost more than everything else in the frame (npm run bench -- subscriptions).
 */
function showCellTitle(event: { target: EventTarget }) {
  if (!(event.target instanceof Element)) return
  const cell = event.target.closest<HTMLElement>('.dt-cell')
  if (!cell || cell.querySelector('button, input')) return
  const text = cell.textContent ?? ''
  if (cell.title !== text) cell.title = text
}

/** `data-end` while scrolled all the way right: no column passes under the sticky Actions cell. */
function markScrolledToEnd(event: { currentTarget: HTMLElement }) {
  const element = event.currentTarget
  element.toggleAttribute('data-end', element.scrollLeft + element.clientWidth >= element.scrollWidth - 1)
}

function cellClass(meta: DataTableColumnMeta | undefined, header = false): string {
  let name = 'dt-cell'
  if (meta?.align === 'end') name += ' is-end'
  if (meta?.align === 'center') name += ' is-center'
  if (meta?.mono && !header) name += ' mono'
  if (meta?.numeric) name += ' is-numeric'
  if (meta?.stickyEnd) name += ' is-sticky-end'
  return name
}

function Checkbox(props: { label: string; checked: boolean; indeterminate?: boolean; onChange: (event: unknown) => void }) {
  const ref = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = Boolean(props.indeterminate) && !props.checked
  }, [props.indeterminate, props.checked])
  return (
    <input
      ref={ref}
      type="checkbox"
      className="dt-check"
      aria-label={props.label}
      checked={props.checked}
      // Click, not change: the handler reads Shift from the event for range selection.
      onClick={props.onChange}
      onChange={() => undefined}
    />
  )
}

/** Server-side pager: EMQX's `page`/`limit` with `meta.count` (when known) and `meta.hasnext`. */
export function Pager({ paging, rowsOnPage }: { paging: ServerPaging; rowsOnPage: number }) {
  const { t } = useTranslation()
  const { page, pageSize, count, hasNext, onPageChange, onPageSizeChange, onShowAll, all = false } = paging
  const sizes = paging.pageSizes ?? PAGE_SIZES
  const pages = count !== undefined ? Math.max(1, Math.ceil(count / pageSize)) : undefined
  const first = rowsOnPage > 0 ? (all ? 1 : (page - 1) * pageSize + 1) : 0
  const last = all ? rowsOnPage : (page - 1) * pageSize + rowsOnPage
  return (
    <nav className="dt-pager" aria-label={t('table.pagination')}>
      <span className="muted">
        {count !== undefined ? t('table.total', { count }) : null}
        {rowsOnPage > 0 ? <span className="dt-range">{t('table.range', { first, last })}</span> : null}
      </span>
      <span className="dt-pager-controls">
        <select
          className="select dt-size"
          aria-label={t('table.pageSize')}
          value={all ? ALL : pageSize}
          onChange={(event) => (event.target.value === ALL ? onShowAll?.() : onPageSizeChange(Number(event.target.value)))}
        >
          {sizes.map((size) => (
            <option key={size} value={size}>
              {t('table.perPage', { size })}
            </option>
          ))}
          {onShowAll ? <option value={ALL}>{t('table.all')}</option> : null}
        </select>
        {all ? null : (
          <>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={page <= 1}
              onClick={() => onPageChange(page - 1)}
              aria-label={t('table.prev')}
            >
              ‹
            </button>
            <span className="dt-page" aria-live="polite">
              {pages !== undefined ? t('table.pageOf', { page, pages }) : t('table.page', { page })}
            </span>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={!hasNext}
              onClick={() => onPageChange(page + 1)}
              aria-label={t('table.next')}
            >
              ›
            </button>
          </>
        )}
      </span>
    </nav>
  )
}

const ALL = 'all'

/** The pager and the column chooser get the same props on every scroll frame: React skips them. */
const MemoPager = memo(Pager)
const MemoColumnChooser = memo(ColumnChooser)
