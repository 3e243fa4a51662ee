import { describe, expect, it } from 'vitest'
import en from '../locales/en.json'
import zh from '../locales/zh.json'
import { allCommands } from '../commands/index.ts'
import { commandsByGroup, createRegistry, getCommand, listCommands, registry } from '../commands/registry.ts'
import { screens } from '../commands/routes.ts'
import type { AnyCommand } from '../commands/define.ts'

type Tree = { [key: string]: string | Tree }

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined
    node = node[part]
  }
  return typeof node === 'string' ? node : undefined
}

describe('the command registry', () => {
  it('gives every command a unique dotted id', () => {
    const ids = allCommands.map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/)
  })

  it('has a title and a group text in both languages for every command', () => {
    for (const command of allCommands) {
      for (const [lang, tree] of [['en', en], ['zh', zh]] as const) {
        expect(lookup(tree as Tree, command.title), `${lang} ${command.title}`).toBeTruthy()
        expect(lookup(tree as Tree, command.group), `${lang} ${command.group}`).toBeTruthy()
      }
    }
  })

  it('has a describe text in both languages for every command that asks to confirm', () => {
    for (const command of allCommands.filter((c) => c.danger || c.confirm)) {
      expect(command.describe, command.id).toBeTypeOf('function')
    }
    const logout = getCommand('session.logout')
    expect(logout?.describe?.({})).toEqual({ key: 'confirm.logout' })
    expect(lookup(en as Tree, 'confirm.logout')).toBe('Confirm to logout')
    expect(lookup(zh as Tree, 'confirm.logout')).toBeTruthy()
  })

  it('finds commands by id and returns nothing for unknown ids', () => {
    expect(getCommand('client.kick')?.danger).toBe(true)
    expect(getCommand('settings.theme')?.title).toBe('cmd.settings.theme')
    expect(getCommand('no.such')).toBeUndefined()
    expect(listCommands()).toHaveLength(allCommands.length)
  })

  it('lists groups in order of first appearance with every command in exactly one group', () => {
    const groups = commandsByGroup()
    expect(groups[0].group).toBe('cmdGroup.navigation')
    expect(groups.map((g) => g.group)).toEqual([...new Set(allCommands.map((c) => c.group))])
    expect(groups.flatMap((g) => g.commands).length).toBe(allCommands.length)
    expect(registry.groups().find((g) => g.group === 'cmdGroup.clients')?.commands.map((c) => c.id)).toContain('client.kick')
  })

  it('has a go command for every screen that navigates to its path with its shortcut', async () => {
    for (const screen of screens) {
      const command = getCommand(`go.${screen.id}`)
      expect(command, screen.id).toBeDefined()
      expect(command?.title).toBe(screen.title)
      expect(command?.shortcut).toBe(screen.shortcut)
      expect(command?.needsUi).toBe(true)
      const visited: string[] = []
      const ui = { navigate: (to: string) => visited.push(to), setSetting() {}, logout: async () => {} }
      await command?.run({ api: {} as never, ui }, {})
      expect(visited).toEqual([screen.path])
    }
  })

  it('passes settings arguments to the browser effects', async () => {
    const calls: [string, unknown][] = []
    const ui = {
      navigate() {},
      setSetting: (key: string, value: unknown) => void calls.push([key, value]),
      logout: async () => {},
    }
    await getCommand('settings.language')?.run({ api: {} as never, ui }, { lang: 'zh' })
    await getCommand('settings.syncOsTheme')?.run({ api: {} as never, ui }, { enabled: false })
    expect(calls).toEqual([
      ['lang', 'zh'],
      ['syncOsTheme', false],
    ])
  })

  it('refuses duplicate and undotted ids', () => {
    const base = allCommands[0]
    const copy = (id: string): AnyCommand => ({ ...base, id })
    expect(() => createRegistry([copy('a.b'), copy('a.b')])).toThrow(/Duplicate/)
    expect(() => createRegistry([copy('nodots')])).toThrow(/dotted/)
  })
})
