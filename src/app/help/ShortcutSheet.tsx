// The `?` sheet: every keyboard shortcut, generated from the commands' declared shortcuts (grouped
// as the palette groups them), the shell's own keys and the tables' key map (src/ui/tableKeys.ts,
// the map DataTable runs), translated.
import { atom, useAtom } from 'jotai'
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { commandsByGroup } from '../../../commands/registry.ts'
import { strokeLabel, tableKeyMap } from '../../ui/tableKeys.ts'
import { isMac, shortcutLabels } from '../commands/shortcuts.ts'
import './help.css'

export const shortcutSheetOpenAtom = atom(false)

interface Row {
  /** Alternatives, each a list of strokes, each a list of keys. */
  keys: string[][][]
  label: string
  id?: string
  danger?: boolean
}

interface Group {
  heading: string
  rows: Row[]
}

/** The sheet's content as data, so a test can hold it against the registry. */
export function shortcutGroups(): Group[] {
  const mod = isMac ? '⌘' : 'Ctrl'
  const general: Group = {
    heading: 'help.general',
    rows: [
      { keys: [[[mod, 'K']]], label: 'help.palette' },
      { keys: [[['Ctrl', '`']]], label: 'help.terminal' },
      { keys: [[['Esc']]], label: 'help.escape' },
    ],
  }
  const fromCommands = commandsByGroup()
    .map((group) => ({
      heading: group.group,
      rows: group.commands
        .filter((command) => command.shortcut)
        .map((command) => ({ keys: [shortcutLabels(command.shortcut!)], label: command.title, id: command.id, danger: command.danger })),
    }))
    .filter((group) => group.rows.length > 0)
  const tables: Group = {
    heading: 'help.tables',
    rows: tableKeyMap
      .filter((action) => action.visible !== false)
      .map((action) => ({ keys: action.strokes.map((stroke) => [strokeLabel(stroke)]), label: action.description, danger: action.danger })),
  }
  // Short groups first, so the two columns of the sheet fill evenly.
  return [general, tables, ...fromCommands]
}

export function ShortcutSheet() {
  const [open, setOpen] = useAtom(shortcutSheetOpenAtom)
  return open ? <Sheet onClose={() => setOpen(false)} /> : null
}

function Sheet({ onClose }: { onClose(): void }) {
  const { t } = useTranslation()
  const titleId = useId()
  const groups = useMemo(shortcutGroups, [])
  const closeRef = useRef<HTMLButtonElement>(null)
  const bodyRef = useRef<HTMLDivElement>(null)
  const moreBelow = useMoreBelow(bodyRef)

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    closeRef.current?.focus()
    return () => {
      if (previous?.isConnected) previous.focus({ preventScroll: true })
    }
  }, [])

  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key === 'Escape' || event.key === '?') {
      event.preventDefault()
      event.stopPropagation()
      onClose()
    } else if (event.key === 'Tab') {
      // One button: focus stays on it; the list scrolls with the arrows and Page keys.
      event.preventDefault()
      closeRef.current?.focus()
    } else if (['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End'].includes(event.key)) {
      const body = bodyRef.current
      if (!body) return
      event.preventDefault()
      if (event.key === 'Home' || event.key === 'End') body.scrollTo({ top: event.key === 'Home' ? 0 : body.scrollHeight })
      else {
        const step = event.key.startsWith('Page') ? body.clientHeight * 0.9 : 40
        body.scrollBy({ top: event.key === 'ArrowDown' || event.key === 'PageDown' ? step : -step })
      }
    }
  }

  return (
    <div className="dialog-backdrop shortcut-sheet-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog shortcut-sheet" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        <div className="dialog-header shortcut-sheet-header">
          <h2 id={titleId}>{t('help.title')}</h2>
          <button ref={closeRef} type="button" className="btn btn-ghost btn-sm" onClick={onClose}>
            {t('help.close')}
          </button>
        </div>
        <div ref={bodyRef} className="dialog-body shortcut-sheet-body">
          {groups.map((group) => (
            <section key={group.heading} className="shortcut-group" aria-label={t(group.heading)}>
              <h3>{t(group.heading)}</h3>
              <dl>
                {group.rows.map((row) => (
                  <div key={row.id ?? row.label} className={`shortcut-row${row.danger ? ' is-danger' : ''}`} data-command={row.id}>
                    <dt>{t(row.label)}</dt>
                    <dd>
                      {row.keys.map((alternative, a) => (
                        <span key={a} className="shortcut-alt">
                          {a > 0 && <span className="muted shortcut-or">{t('help.or')}</span>}
                          {alternative.map((stroke, i) => (
                            <span key={i} className="shortcut-stroke">
                              {i > 0 && <span className="muted shortcut-then">{t('help.then')}</span>}
                              {stroke.map((key, k) => (
                                <kbd key={k} className="kbd">
                                  {key}
                                </kbd>
                              ))}
                            </span>
                          ))}
                        </span>
                      ))}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
        {moreBelow ? (
          // Not a tab stop: focus stays on Close, and the keys above scroll.
          <button
            type="button"
            tabIndex={-1}
            className="shortcut-sheet-more"
            onClick={() => bodyRef.current?.scrollBy({ top: bodyRef.current.clientHeight * 0.9 })}
          >
            {t('help.moreBelow')}
          </button>
        ) : null}
        <div className="dialog-footer muted shortcut-sheet-footer">{t('help.footer')}</div>
      </div>
    </div>
  )
}

/** Whether the list goes on below what is in view: the sheet then says so above its footer. */
function useMoreBelow(ref: { current: HTMLElement | null }): boolean {
  const [more, setMore] = useState(false)
  useLayoutEffect(() => {
    const body = ref.current
    if (!body) return
    const update = () => setMore(body.scrollTop + body.clientHeight < body.scrollHeight - 2)
    update()
    body.addEventListener('scroll', update, { passive: true })
    const observer = new ResizeObserver(update)
    observer.observe(body)
    return () => {
      body.removeEventListener('scroll', update)
      observer.disconnect()
    }
  }, [ref])
  return more
}
