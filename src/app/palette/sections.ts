// The palette's list: every command as an entry, grouped into sections for the query typed.
import type { AnyCommand } from '../../../commands/define.ts'
import { rank, type RankItem, type Usage } from './rank.ts'

export interface Entry extends RankItem {
  command: AnyCommand
  /** Argument names, to tell whether the table selection applies. */
  fieldNames: string[]
}

const RECENT_SHOWN = 5

export interface Section {
  key: string
  heading: string
  entries: Entry[]
}

/** The sections cut to their first `rows` rows in all (the same array when they all fit). */
export function firstRows(sections: Section[], rows: number): Section[] {
  if (sections.reduce((sum, section) => sum + section.entries.length, 0) <= rows) return sections
  const cut: Section[] = []
  let left = rows
  for (const section of sections) {
    if (left <= 0) break
    cut.push(section.entries.length <= left ? section : { ...section, entries: section.entries.slice(0, left) })
    left -= section.entries.length
  }
  return cut
}

/** Empty query: recent first, then every group in registry order. Query: groups ordered by their best match. */
export function buildSections(entries: Entry[], search: string, recent: readonly string[], usage?: ReadonlyMap<string, Usage>): Section[] {
  const ranked = rank(entries, search, recent, usage)
  const sections: Section[] = []
  if (!search.trim()) {
    const recentEntries = ranked.filter((r) => r.recent >= 0).slice(0, RECENT_SHOWN)
    if (recentEntries.length) sections.push({ key: 'recent', heading: 'cmdGroup.recent', entries: recentEntries.map((r) => r.item) })
  }
  const byGroup = new Map<string, Entry[]>()
  const source = search.trim() ? ranked.map((r) => r.item) : entries
  for (const entry of source) {
    const list = byGroup.get(entry.command.group) ?? []
    list.push(entry)
    byGroup.set(entry.command.group, list)
  }
  for (const [group, list] of byGroup) sections.push({ key: group, heading: group, entries: list })
  return sections
}

