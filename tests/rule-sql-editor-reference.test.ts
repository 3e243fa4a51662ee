// The function reference beside the rule SQL editor names every function the engine has, with the
// same argument counts, and each one's line of help exists in both languages.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ruleFunctions } from '../server/rules/functions/index.ts'
import { RULE_FUNCTIONS, RULE_FUNCTION_GROUPS, helpKeyOf, signatureOf } from '../src/features/rules/sql/functionReference.ts'

type Tree = { [key: string]: string | Tree }
const locale = (lang: string) => JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8')) as Tree
const lookup = (tree: Tree, key: string) => key.split('.').reduce<string | Tree | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree)

const OPERATORS = new Set(['+', '-', '*', '/', 'div', 'mod'])

describe('rule SQL function reference', () => {
  it('lists every function of the engine with the argument counts it accepts', () => {
    const engine = [...ruleFunctions].filter(([name]) => !OPERATORS.has(name)).map(([name, fn]) => ({ name, arities: fn.arities, variadicFrom: fn.variadicFrom }))
    const reference = RULE_FUNCTIONS.map(({ name, arities, variadicFrom }) => ({ name, arities, variadicFrom }))
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)
    expect(reference.sort(byName)).toEqual(engine.sort(byName))
  })

  it('has one line of help for every function, and a title for every group, in English and Chinese', () => {
    for (const lang of ['en', 'zh']) {
      const tree = locale(lang)
      const missing = [...RULE_FUNCTIONS.map((fn) => helpKeyOf(fn.name)), ...RULE_FUNCTION_GROUPS.map((g) => `ruleSql.group.${g}`)].filter((key) => typeof lookup(tree, key) !== 'string')
      expect(missing, lang).toEqual([])
    }
  })

  it('writes a signature with the optional parameters in brackets', () => {
    const substr = RULE_FUNCTIONS.find((fn) => fn.name === 'substr')
    expect(substr && signatureOf(substr)).toBe('substr(str, start[, length])')
  })
})
