// A choice among a few cards (the create flow's mechanisms and backends): a radio group the arrow
// keys move through; Enter or a double click picks the choice and goes on.
import { useRef, type KeyboardEvent } from 'react'

export interface Choice {
  value: string
  title: string
  text: string
}

export interface ChoiceGroupProps {
  label: string
  options: Choice[]
  value: string
  onChange(value: string): void
  onPick(): void
}

export function ChoiceGroup({ label, options, value, onChange, onPick }: ChoiceGroupProps) {
  const ref = useRef<HTMLDivElement>(null)
  const onKeyDown = (event: KeyboardEvent) => {
    const index = options.findIndex((option) => option.value === value)
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key]
    if (event.key === 'Enter') {
      event.preventDefault()
      onPick()
      return
    }
    if (!step) return
    event.preventDefault()
    const next = options[(index + step + options.length) % options.length]
    onChange(next.value)
    ref.current?.querySelector<HTMLElement>(`[data-value="${next.value}"]`)?.focus()
  }
  return (
    <div ref={ref} role="radiogroup" aria-label={label} className="choice-cards" onKeyDown={onKeyDown}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          data-value={option.value}
          aria-checked={option.value === value}
          tabIndex={option.value === value ? 0 : -1}
          className="choice-card"
          autoFocus={option.value === value}
          onClick={() => onChange(option.value)}
          onDoubleClick={onPick}
        >
          <strong>{option.title}</strong>
          <span className="muted">{option.text}</span>
        </button>
      ))}
    </div>
  )
}
