// An area is added whole or the suite says what is missing: a built screen whose path the route
// table lacks, a command group without its texts in both languages, an API module that createApi
// (the API every screen, command and the CLI runs with) does not build, a command that changes the
// server without naming the areas it changes (screens reading them would not re-read). A path of
// the route table without a component is allowed: it shows the "not built yet" notice.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import en from '../locales/en.json'
import zh from '../locales/zh.json'
import { describeArgs } from '../commands/args.ts'
import { commandsByGroup } from '../commands/registry.ts'
import { detailPaths, screens } from '../commands/routes.ts'
import { screenComponents } from '../src/routes/screens.ts'
import { ROOT } from './support/importGraph.ts'

type Tree = { [key: string]: string | Tree }

function has(tree: Tree, key: string): boolean {
  let node: string | Tree | undefined = tree
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return false
    node = node[part]
  }
  return typeof node === 'string' && node !== ''
}

/** The i18n keys a command group needs: its title, and each command's title and argument labels. */
export function groupKeys(group: ReturnType<typeof commandsByGroup>[number]): string[] {
  return [group.group, ...group.commands.flatMap((command) => [command.title, ...describeArgs(command).map((field) => field.label)])]
}

/** Keys missing from either locale, as `lang key`. */
function missing(keys: readonly string[]): string[] {
  return keys.flatMap((key) => [['en', en], ['zh', zh]].flatMap(([lang, tree]) => (has(tree as Tree, key) ? [] : [`${lang} ${key}`])))
}

/** The area factories (`fooApi(http)`) src/api/*.ts export, by file. */
function apiFactories(): { file: string; name: string }[] {
  return readdirSync(join(ROOT, 'src/api'))
    .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
    .flatMap((file) => {
      const source = readFileSync(join(ROOT, 'src/api', file), 'utf8')
      return [...source.matchAll(/^export (?:function (\w+Api)\s*\(|const (\w+Api)\s*=)/gm)].map((match) => ({ file, name: match[1] ?? match[2] }))
    })
}

/** The factories createApi calls: `area: fooApi(http),` lines in its body. */
function createApiCalls(): Set<string> {
  const source = readFileSync(join(ROOT, 'src/api/index.ts'), 'utf8')
  const body = source.slice(source.indexOf('export function createApi'))
  return new Set([...body.matchAll(/\b(\w+Api)\(http\)/g)].map((match) => match[1]))
}

describe('every area is registered whole', () => {
  it('gives every built screen a path in the route table', () => {
    const routed = new Set([...screens, ...detailPaths].map((screen) => screen.path))
    expect(Object.keys(screenComponents).length).toBeGreaterThan(10)
    expect(Object.keys(screenComponents).filter((path) => !routed.has(path))).toEqual([])
  })

  it("has every command group's title, command titles and argument labels in both locales", () => {
    const groups = commandsByGroup()
    expect(groups.length).toBeGreaterThan(10)
    expect(groups.flatMap((group) => missing(groupKeys(group)))).toEqual([])
  })

  it('builds every API module of src/api in createApi', () => {
    const factories = apiFactories()
    const called = createApiCalls()
    expect(factories.length).toBeGreaterThan(15)
    expect(factories.filter(({ name }) => !called.has(name)).map(({ file, name }) => `${file}: ${name}`)).toEqual([])
  })

  it('has every command that reaches the server say which areas it changes', () => {
    const silent = commandsByGroup()
      .flatMap((group) => group.commands)
      .filter((command) => !command.needsUi && !command.readOnly && !command.changes?.length)
    expect(silent.map((command) => command.id)).toEqual([])
  })

  it('would report a half-added area', () => {
    expect(missing(['cmdGroup.clients', 'cmdGroup.noSuchArea'])).toEqual(['en cmdGroup.noSuchArea', 'zh cmdGroup.noSuchArea'])
    const group = { group: 'cmdGroup.clients', commands: [{ ...commandsByGroup()[1].commands[0], title: 'cmd.noSuch.title' }] }
    expect(missing(groupKeys(group))).toContain('en cmd.noSuch.title')
  })
})
