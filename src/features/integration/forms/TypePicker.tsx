// Step 1 of a create flow: the types as cards (label and one line of what it does). Typing filters
// them (from the filter box or while a card has focus), the arrow keys move through them, Enter or a
// double click picks the type and goes on.
import { useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { typeLabel } from './typeLabels.ts'

export interface TypePickerProps {
  types: readonly string[]
  value: string
  onChange(type: string): void
  onPick(type: string): void
}

export function TypePicker({ types, value, onChange, onPick }: TypePickerProps) {
  const { t } = useTranslation()
  const [filter, setFilter] = useState('')
  const filterRef = useRef<HTMLInputElement>(null)
  const groupRef = useRef<HTMLDivElement>(null)
  const words = filter.trim().toLowerCase()
  const shown = types.filter((type) => !words || `${type} ${typeLabel(t, type)} ${t(`integrationFields.typeHint.${type}`, { defaultValue: '' })}`.toLowerCase().includes(words))
  const current = shown.includes(value) ? value : shown[0]

  const move = (step: number, focusCard: boolean) => {
    if (shown.length === 0) return
    const index = Math.max(0, shown.indexOf(current ?? ''))
    const next = shown[(index + step + shown.length) % shown.length]
    onChange(next)
    if (focusCard) groupRef.current?.querySelector<HTMLElement>(`[data-value="${next}"]`)?.focus()
  }
  const onKeyDown = (event: KeyboardEvent, inFilter: boolean) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key]
    if (event.key === 'Enter') {
      event.preventDefault()
      if (current) onPick(current)
      return
    }
    if (step) {
      event.preventDefault()
      move(step, !inFilter)
      return
    }
    // A letter typed on a card goes to the filter.
    if (!inFilter && event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault()
      setFilter((text) => text + event.key)
      filterRef.current?.focus()
    }
  }

  return (
    <div>
      <input
        ref={filterRef}
        className="input integration-types-filter"
        type="search"
        autoFocus
        value={filter}
        placeholder={t('integrationForms.filterTypes')}
        aria-label={t('integrationForms.filterTypes')}
        onChange={(event) => setFilter(event.target.value)}
        onKeyDown={(event) => onKeyDown(event, true)}
      />
      <div ref={groupRef} role="radiogroup" aria-label={t('integrationForms.step.type')} className="choice-cards" onKeyDown={(event) => onKeyDown(event, false)}>
        {shown.map((type) => (
          <button
            key={type}
            type="button"
            role="radio"
            data-value={type}
            aria-checked={type === current}
            tabIndex={type === current ? 0 : -1}
            className="choice-card"
            onClick={() => onChange(type)}
            onDoubleClick={() => onPick(type)}
          >
            <strong>{typeLabel(t, type)}</strong>
            <span className="muted">{t(`integrationFields.typeHint.${type}`, { defaultValue: t('integrationForms.typeHintOther') })}</span>
            <span className="muted mono">{type}</span>
          </button>
        ))}
        {shown.length === 0 ? <p className="muted">{t('integrationForms.noTypes')}</p> : null}
      </div>
    </div>
  )
}
