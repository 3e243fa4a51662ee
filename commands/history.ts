// The command history and the script view, as commands: they live in the browser (the history is
// kept in its localStorage), so the CLI lists them but cannot run them.
import * as v from 'valibot'
import { defineCommand, type CommandContext, type HistoryEffects } from './define.ts'

function historyUi(ctx: CommandContext): HistoryEffects {
  const history = ctx.ui?.history
  if (!history) throw new Error('This command needs the browser')
  return history
}

const entryNumber = (title: string) =>
  v.optional(v.pipe(v.number('err.number'), v.integer('err.integer'), v.minValue(1, 'err.min'), v.title(title)))

export const showHistory = defineCommand({
  id: 'history.show',
  title: 'cmd.history.show',
  group: 'cmdGroup.history',
  aliases: ['history', 'log', 'replay', '历史', '记录'],
  args: v.object({}),
  needsUi: true,
  run: async (ctx) => historyUi(ctx).show(),
})

export const copyHistory = defineCommand({
  id: 'history.copy',
  title: 'cmd.history.copy',
  group: 'cmdGroup.history',
  aliases: ['copy', 'export', 'runbook', '复制'],
  args: v.object({
    from: entryNumber('form.field.historyFrom'),
    to: entryNumber('form.field.historyTo'),
  }),
  positional: ['from', 'to'],
  needsUi: true,
  run: async (ctx, { from, to }) => ({ copied: await historyUi(ctx).copy({ from, to }) }),
})

export const clearHistoryCommand = defineCommand({
  id: 'history.clear',
  title: 'cmd.history.clear',
  group: 'cmdGroup.history',
  aliases: ['forget', '清空历史'],
  args: v.object({}),
  danger: true,
  needsUi: true,
  describe: () => ({ key: 'cmd.history.clearDescribe' }),
  run: async (ctx) => historyUi(ctx).clear(),
})

export const openScript = defineCommand({
  id: 'script.open',
  title: 'cmd.script.open',
  group: 'cmdGroup.history',
  aliases: ['script', 'runbook', 'paste', 'batch', '脚本'],
  args: v.object({}),
  needsUi: true,
  run: async (ctx) => historyUi(ctx).openScript(''),
})

export const historyCommands = [showHistory, copyHistory, clearHistoryCommand, openScript]
