// Delayed publish: messages sent to `$delayed/{seconds}/{topic}` wait here until due.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { ApiError } from '../contract/api-error.ts'

export const deleteDelayed = defineCommand({
  id: 'delayed.delete',
  title: 'cmd.delayed.delete',
  group: 'cmdGroup.delayed',
  changes: ['delayed'],
  args: v.object({
    msgid: v.pipe(v.string(), v.title('form.field.msgid'), v.minLength(1, 'err.required')),
    /** Found from the waiting messages when not given. */
    node: v.optional(v.pipe(v.string(), v.title('form.field.node'))),
  }),
  positional: ['msgid', 'node'],
  danger: true,
  aliases: ['delayed', '延迟发布'],
  complete: {
    msgid: (api, query, signal) => api.delayed.suggest(query, signal),
    node: async (api, query, signal) => {
      const page = await api.delayed.messages({ page: 1, limit: 100 }, signal)
      return [...new Set(page.data.map((m) => m.node))].filter((n) => n.includes(query.trim())).slice(0, 10)
    },
  },
  describe: ({ msgid }) => ({ key: 'cmd.delayed.deleteDescribe', values: { msgid } }),
  run: async (ctx, { msgid, node }) => {
    let target = node
    for (let page = 1; !target; page++) {
      const list = await ctx.api.delayed.messages({ page, limit: 1000 })
      target = list.data.find((m) => String(m.msgid) === msgid)?.node
      const more = list.meta.hasnext ?? (list.meta.count ?? 0) > page * 1000
      if (!target && !more) throw new ApiError(404, 'MESSAGE_ID_NOT_FOUND', `No delayed message ${msgid}`)
    }
    return ctx.api.delayed.delete(target, msgid)
  },
})

export const updateDelayed = defineCommand({
  id: 'delayed.update',
  title: 'cmd.delayed.update',
  group: 'cmdGroup.delayed',
  changes: ['delayed'],
  args: v.object({
    enable: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.enable'))),
    max_delayed_messages: v.optional(
      v.pipe(v.number('err.number'), v.title('form.field.maxDelayedMessages'), v.description('form.hint.zeroUnlimited'), v.integer('err.integer'), v.minValue(0)),
    ),
  }),
  aliases: ['delayed settings', '延迟发布设置'],
  run: async (ctx, { enable, max_delayed_messages }) => {
    const current = await ctx.api.delayed.settings()
    return ctx.api.delayed.updateSettings({
      ...current,
      ...(enable !== undefined ? { enable } : {}),
      ...(max_delayed_messages !== undefined ? { max_delayed_messages } : {}),
    })
  },
})

export const delayedCommands = [deleteDelayed, updateDelayed]
