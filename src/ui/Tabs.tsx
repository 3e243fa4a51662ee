// A detail screen's tabs (Overview, Settings, Users...) as a row of underlined tabs, and the panel
// they control. The ids pair each tab with the panel (`<prefix>-tab-<name>`, `<prefix>-pane-<name>`).
import type { ReactNode } from 'react'
import './tabs.css'

export function Tabs<T extends string>({ tabs, selected, onSelect, label, idPrefix, text }: {
  tabs: readonly T[]
  selected: T
  onSelect(tab: T): void
  /** Accessible name of the tab list. */
  label: string
  idPrefix: string
  /** A tab's translated name. */
  text(tab: T): string
}) {
  return (
    <div className="detail-tabs" role="tablist" aria-label={label}>
      {tabs.map((name) => (
        <button key={name} type="button" role="tab" id={`${idPrefix}-tab-${name}`} aria-selected={selected === name} aria-controls={`${idPrefix}-pane-${name}`} onClick={() => onSelect(name)}>
          {text(name)}
        </button>
      ))}
    </div>
  )
}

export function TabPanel({ idPrefix, selected, children }: { idPrefix: string; selected: string; children: ReactNode }) {
  return (
    <div role="tabpanel" id={`${idPrefix}-pane-${selected}`} aria-labelledby={`${idPrefix}-tab-${selected}`}>
      {children}
    </div>
  )
}
