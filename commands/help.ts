// Help: the `?` sheet of every keyboard shortcut, itself a command so `?` is declared like the rest.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { requireUi } from './navigation.ts'

export const showShortcuts = defineCommand({
  id: 'help.shortcuts',
  title: 'cmd.help.shortcuts',
  group: 'cmdGroup.help',
  aliases: ['keyboard', 'keys', 'shortcuts', 'help', '快捷键', '帮助'],
  args: v.object({}),
  shortcut: '?',
  needsUi: true,
  run: async (ctx) => {
    const ui = requireUi(ctx)
    if (!ui.showShortcuts) throw new Error('This command needs the browser')
    ui.showShortcuts()
  },
})

export const helpCommands = [showShortcuts]
