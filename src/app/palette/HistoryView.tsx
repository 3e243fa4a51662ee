// The palette's history page: every command that ran, newest first. Arrows move, Shift extends a
// range (Shift+click too), Enter opens the command's form filled in as it ran, Ctrl+C copies the
// range as a script through `history.copy`, so the terminal and the clipboard agree.
import { useAtomValue } from 'jotai'
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent as ReactMouseEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyCommand } from '../../../commands/define.ts'
import { clearHistoryCommand, copyHistory } from '../../../commands/history.ts'
import { getCommand } from '../../../commands/registry.ts'
import { historyAtom, type HistoryEntry } from '../../state/history.ts'
import { useRunCommand } from '../commands/useRunCommand.ts'
import { formValuesOf, scriptLineOf } from './request.ts'
import './script-view.css'

export interface HistoryViewProps {
  /** Opens the command's form with these values; one without arguments runs (after a confirmation if dangerous). */
  onRerun(command: AnyCommand, values: Record<string, string>): void
  onBack(): void
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })
const dateFormat = new Intl.DateTimeFormat(undefined, { month: '2-digit', day: '2-digit' })

/** The time of day for today's entries, with the date for older ones; `today` is `Date#toDateString()`. */
function when(time: number, today: string): string {
  const date = new Date(time)
  const sameDay = date.toDateString() === today
  return sameDay ? timeFormat.format(date) : `${dateFormat.format(date)} ${timeFormat.format(date)}`
}

export function HistoryView({ onRerun, onBack }: HistoryViewProps) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const entries = useAtomValue(historyAtom)
  // Newest first, as the operator looks back from now.
  const rows = useMemo(() => [...entries].reverse(), [entries])
  const [active, setActive] = useState(0)
  const [anchor, setAnchor] = useState<number | null>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const idBase = useId()
  const today = new Date().toDateString()

  useEffect(() => listRef.current?.focus(), [])
  // A cleared or shrunk history must not leave the cursor past the end.
  useEffect(() => {
    if (active >= rows.length) setActive(Math.max(0, rows.length - 1))
    if (anchor !== null && anchor >= rows.length) setAnchor(null)
  }, [rows.length, active, anchor])
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [active])

  const low = Math.min(anchor ?? active, active)
  const high = Math.max(anchor ?? active, active)
  const selected = rows.length ? rows.slice(low, high + 1) : []
  const current: HistoryEntry | undefined = rows[active]

  const moveTo = (index: number, extend: boolean) => {
    const next = Math.max(0, Math.min(rows.length - 1, index))
    if (extend) setAnchor((a) => a ?? active)
    else setAnchor(null)
    setActive(next)
  }

  const rerun = (entry: HistoryEntry | undefined) => {
    const command = entry && getCommand(entry.id)
    if (command) onRerun(command, formValuesOf(entry.args))
  }

  const copy = (list: HistoryEntry[]) => {
    if (!list.length) return
    const seqs = list.map((e) => e.seq)
    void run(copyHistory, { from: String(Math.min(...seqs)), to: String(Math.max(...seqs)) }, { source: 'palette' })
  }

  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.nativeEvent.isComposing) return
    const mod = event.ctrlKey || event.metaKey
    const page = 10
    let handled = true
    switch (event.key) {
      case 'ArrowDown':
      case 'j':
        if (mod) handled = false
        else moveTo(active + 1, event.shiftKey)
        break
      case 'ArrowUp':
      case 'k':
        if (mod) handled = false
        else moveTo(active - 1, event.shiftKey)
        break
      case 'J':
        moveTo(active + 1, true)
        break
      case 'K':
        moveTo(active - 1, true)
        break
      case 'PageDown':
        moveTo(active + page, event.shiftKey)
        break
      case 'PageUp':
        moveTo(active - page, event.shiftKey)
        break
      case 'Home':
        moveTo(0, event.shiftKey)
        break
      case 'End':
        moveTo(rows.length - 1, event.shiftKey)
        break
      case 'Enter':
        rerun(current)
        break
      case 'a':
      case 'A':
        if (!mod || !rows.length) handled = false
        else {
          setAnchor(0)
          setActive(rows.length - 1)
        }
        break
      case 'c':
      case 'C':
      case 'y':
        if (event.key !== 'y' && !mod) handled = false
        else copy(selected)
        break
      default:
        handled = false
    }
    if (handled) {
      event.preventDefault()
      event.stopPropagation()
    }
  }

  // Rows are memoised (a long history re-renders on every arrow key); they get stable callbacks
  // that reach the current handlers through a ref.
  const handlers = useRef({ click: (_event: ReactMouseEvent, _index: number) => {}, open: (_index: number) => {} })
  const rowClick = useCallback((event: ReactMouseEvent, index: number) => handlers.current.click(event, index), [])
  const rowOpen = useCallback((index: number) => handlers.current.open(index), [])

  const onRowClick = (event: ReactMouseEvent, index: number) => {
    listRef.current?.focus()
    if (event.shiftKey) {
      // Keep the browser from selecting text across rows.
      window.getSelection()?.removeAllRanges()
      setAnchor((a) => a ?? active)
    } else setAnchor(null)
    setActive(index)
  }
  handlers.current = { click: onRowClick, open: (index) => rerun(rows[index]) }

  return (
    <div className="palette-step history-view">
      <div className="palette-step-header">
        <span className="palette-step-title">{t('history.title')}</span>
        <span className="muted">{t('history.count', { count: rows.length })}</span>
        {selected.length > 1 && <span className="tag tag-muted">{t('history.selected', { count: selected.length })}</span>}
      </div>
      {rows.length === 0 ? (
        <p className="history-empty muted">{t('history.empty')}</p>
      ) : (
        <div
          ref={listRef}
          className="history-list"
          role="listbox"
          aria-multiselectable="true"
          aria-label={t('history.list')}
          aria-activedescendant={`${idBase}-${active}`}
          tabIndex={0}
          onKeyDown={onKeyDown}
        >
          {rows.map((entry, index) => (
            <HistoryRow
              key={entry.seq}
              id={`${idBase}-${index}`}
              index={index}
              entry={entry}
              today={today}
              active={index === active}
              selected={index >= low && index <= high}
              onRowClick={rowClick}
              onRowOpen={rowOpen}
            />
          ))}
        </div>
      )}
      <div className="script-actions">
        <button type="button" className="btn" onClick={onBack}>
          {t('palette.back')}
        </button>
        <span className="script-actions-spacer" />
        <button type="button" className="btn btn-ghost" disabled={!rows.length} onClick={() => onRerun(clearHistoryCommand as unknown as AnyCommand, {})}>
          {t('history.clear')}
        </button>
        <button type="button" className="btn" disabled={!rows.length} onClick={() => copy(rows)}>
          {t('history.copyAll')}
        </button>
        <button type="button" className="btn" disabled={!selected.length} onClick={() => copy(selected)}>
          {t('history.copy')}
        </button>
        <button type="button" className="btn btn-primary" disabled={!current || !getCommand(current.id)} onClick={() => rerun(current)}>
          {t('history.rerun')}
        </button>
      </div>
      <div className="palette-footer muted">{t('history.hint')}</div>
    </div>
  )
}

interface HistoryRowProps {
  id: string
  index: number
  entry: HistoryEntry
  today: string
  active: boolean
  selected: boolean
  onRowClick(event: ReactMouseEvent, index: number): void
  onRowOpen(index: number): void
}

const HistoryRow = memo(function HistoryRow({ id, index, entry, today, active, selected, onRowClick, onRowOpen }: HistoryRowProps) {
  const { t } = useTranslation()
  const command = getCommand(entry.id)
  const detail = entry.ok ? entry.summary : entry.message
  const className = ['history-row', active ? 'is-active' : '', selected ? 'is-selected' : ''].filter(Boolean).join(' ')
  return (
    <div
      id={id}
      data-index={index}
      role="option"
      aria-selected={selected}
      className={className}
      onMouseDown={(event) => event.shiftKey && event.preventDefault()}
      onClick={(event) => onRowClick(event, index)}
      onDoubleClick={() => onRowOpen(index)}
    >
      <span className="history-seq mono muted">#{entry.seq}</span>
      <span className="history-time mono muted">{when(entry.time, today)}</span>
      <span className={entry.ok ? 'tag tag-success history-status' : 'tag tag-danger history-status'}>
        {entry.ok ? t('history.ok') : t('history.failed')}
      </span>
      <span className="history-main">
        <span className="history-title">
          {command ? t(command.title) : entry.id}
          {command?.danger && <span className="tag tag-danger palette-item-tag">!</span>}
          <span className="history-source muted">{t(`history.source.${entry.source}`)}</span>
        </span>
        <span className="history-line mono">{scriptLineOf(entry.id, entry.args)}</span>
        {detail && <span className={entry.ok ? 'history-detail muted' : 'history-detail palette-danger'}>{detail}</span>}
      </span>
    </div>
  )
})
