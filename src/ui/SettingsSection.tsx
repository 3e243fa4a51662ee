// One titled part of a settings screen that holds several forms (the log's handlers, the alarm and
// system monitor settings): a heading, a line saying what the part is for, then its form.
import type { ReactNode } from 'react'
import './settingsSection.css'

export interface SettingsSectionProps {
  /** The heading's element id, naming the section. */
  id: string
  title: string
  intro: string
  children: ReactNode
}

export function SettingsSection({ id, title, intro, children }: SettingsSectionProps) {
  return (
    <section className="settings-section" aria-labelledby={id}>
      <h2 id={id} className="card-title">
        {title}
      </h2>
      <p className="muted">{intro}</p>
      {children}
    </section>
  )
}
