import { describe, expect, it } from 'vitest'
import { firstRows, type Entry, type Section } from '../src/app/palette/sections.ts'

const entry = (id: string) => ({ id }) as Entry
const section = (key: string, ids: string[]): Section => ({ key, heading: key, entries: ids.map(entry) })

describe('the rows a palette render shows at once', () => {
  const sections = [section('recent', ['a', 'b']), section('clients', ['c', 'd', 'e']), section('nodes', ['f'])]

  it('keeps whole sections while they fit and cuts the one that does not, leaving out the rest', () => {
    const cut = firstRows(sections, 4)
    expect(cut.map((s) => [s.key, s.entries.map((e) => e.id)])).toEqual([
      ['recent', ['a', 'b']],
      ['clients', ['c', 'd']],
    ])
    expect(cut[0]).toBe(sections[0])
  })

  it('is every section when they all fit, and nothing for no rows', () => {
    expect(firstRows(sections, 6)).toBe(sections)
    expect(firstRows(sections, 0)).toEqual([])
  })
})
