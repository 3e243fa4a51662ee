// The "Columns" menu of a DataTable: which columns show. Knows nothing of TanStack Table.
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'

export interface ChooserColumn {
  id: string
  label: string
  visible: boolean
  canHide: boolean
}

export interface ColumnChooserProps {
  columns: readonly ChooserColumn[]
  onToggle(id: string, visible: boolean): void
  onReset(): void
}

export function ColumnChooser({ columns, onToggle, onReset }: ColumnChooserProps) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuId = useId()

  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointer)
    return () => document.removeEventListener('pointerdown', onPointer)
  }, [open])

  const hidden = columns.filter((column) => !column.visible).length

  return (
    <div
      className="dt-chooser"
      ref={rootRef}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation()
          setOpen(false)
          buttonRef.current?.focus()
        }
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost btn-sm"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        {t('table.columns')}
        {hidden > 0 ? <span className="dt-chooser-count muted">{t('table.columnsHidden', { count: hidden })}</span> : null}
      </button>
      {open ? (
        <div className="dt-chooser-menu card" id={menuId} role="group" aria-label={t('table.columns')}>
          <ul>
            {columns.map((column) => (
              <li key={column.id}>
                <label className={column.canHide ? undefined : 'muted'}>
                  <input
                    type="checkbox"
                    checked={column.visible}
                    disabled={!column.canHide}
                    onChange={(event) => onToggle(column.id, event.target.checked)}
                  />
                  <span>{column.label}</span>
                </label>
              </li>
            ))}
          </ul>
          <div className="dt-chooser-footer">
            <button type="button" className="btn btn-ghost btn-sm" onClick={onReset}>
              {t('table.columnsReset')}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  )
}
