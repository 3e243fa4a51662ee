import { describe, expect, it } from 'vitest'
import en from '../locales/en.json'
import zh from '../locales/zh.json'

type Tree = { [key: string]: unknown }

function leaves(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>()
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      for (const [k, v] of leaves(value as Tree, path)) out.set(k, v)
    else out.set(path, value)
  }
  return out
}

const enKeys = leaves(en as Tree)
const zhKeys = leaves(zh as Tree)

function interpolations(text: unknown): string[] {
  return typeof text === 'string' ? [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort() : []
}

describe('the locales', () => {
  it('have exactly the same keys in English and Chinese', () => {
    const onlyEn = [...enKeys.keys()].filter((k) => !zhKeys.has(k))
    const onlyZh = [...zhKeys.keys()].filter((k) => !enKeys.has(k))
    expect({ onlyEn, onlyZh }).toEqual({ onlyEn: [], onlyZh: [] })
    expect(enKeys.size).toBeGreaterThan(0)
  })

  it('have no empty or non-text values', () => {
    const bad = [...enKeys, ...zhKeys].filter(([, value]) => typeof value !== 'string' || value.trim() === '')
    expect(bad.map(([key]) => key)).toEqual([])
  })

  it('use the same interpolation names in both languages', () => {
    const mismatched = [...enKeys.keys()].filter(
      (key) => zhKeys.has(key) && interpolations(enKeys.get(key)).join() !== interpolations(zhKeys.get(key)).join(),
    )
    expect(mismatched).toEqual([])
  })
})
