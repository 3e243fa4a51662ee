// Retained messages and the retainer's settings (SPEC 3: 0 means unlimited / never).
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import type { RetainerSettings } from '../src/api/retainer.ts'
import { durationArg } from './flapping.ts'
import { sizeArg } from './args.ts'
import { defineRead, pagedTable, pageArgs, shortTime, textFilter } from './format/read.ts'
import type { RetainedSummary } from '../src/api/retainer.ts'
import { givenArgs } from './args.ts'
import { completeTopic } from './clients.ts'

/** EMQX's rates: `1000/s`, `10/100ms`, or `infinity` (SPEC 5: 'Please enter a properly formatted rate configuration'). */
const RATE = /^(infinity|[1-9]\d*\/\d*(ms|s|m|h|d))$/

/** A count where 0 means unlimited (SPEC 3). */
const count = (title: string) =>
  v.optional(v.pipe(v.number('err.number'), v.title(title), v.description('form.hint.zeroUnlimited'), v.integer('err.integer'), v.minValue(0)))

export const deleteRetained = defineCommand({
  id: 'retained.delete',
  title: 'cmd.retained.delete',
  group: 'cmdGroup.retainer',
  changes: ['retainer'],
  args: v.object({ topic: v.pipe(v.string(), v.title('form.field.topic'), v.minLength(1, 'err.topicRequired')) }),
  positional: ['topic'],
  danger: true,
  aliases: ['retained', 'retain', '保留消息'],
  complete: { topic: (api, query, signal) => api.retainer.suggest(query, signal) },
  describe: ({ topic }) => ({ key: 'cmd.retained.deleteDescribe', values: { topic } }),
  run: (ctx, { topic }) => ctx.api.retainer.delete(topic),
})

export const clearRetained = defineCommand({
  id: 'retained.clear',
  title: 'cmd.retained.clear',
  group: 'cmdGroup.retainer',
  changes: ['retainer'],
  args: v.object({}),
  danger: true,
  aliases: ['clear retained', '清空保留消息'],
  describe: () => ({ key: 'cmd.retained.clearDescribe' }),
  run: (ctx) => ctx.api.retainer.clear(),
})

/**
 * Applies changes to the settings as read, putting each field where this EMQX keeps it:
 * `max_retained_messages` and `storage_type` under `backend` and `batch_read_number` under `flow_control` when the
 * settings have those sections, at the top level otherwise.
 */
export function applyRetainerChanges(
  current: RetainerSettings,
  changes: Partial<Record<'enable' | 'storage_type' | 'msg_expiry_interval' | 'msg_clear_interval' | 'max_payload_size' | 'stop_publish_clear_msg' | 'delivery_rate' | 'max_retained_messages' | 'batch_read_number', unknown>>,
): RetainerSettings {
  const next: RetainerSettings = { ...current }
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue
    if ((key === 'max_retained_messages' || key === 'storage_type') && current.backend && !(key in current))
      next.backend = { ...next.backend, [key]: value }
    else if (key === 'batch_read_number' && current.flow_control && !('batch_read_number' in current))
      next.flow_control = { ...current.flow_control, batch_read_number: value as number }
    else (next as Record<string, unknown>)[key] = value
  }
  return next
}

export const updateRetainer = defineCommand({
  id: 'retainer.update',
  title: 'cmd.retainer.update',
  group: 'cmdGroup.retainer',
  changes: ['retainer'],
  args: v.object({
    enable: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.enable'))),
    storage_type: v.optional(v.pipe(v.picklist(['ram', 'disc'], 'err.oneOf'), v.title('form.field.storageType'), v.description('form.hint.storageType'))),
    msg_expiry_interval: durationArg('form.field.msgExpiryInterval'),
    msg_clear_interval: durationArg('form.field.msgClearInterval'),
    max_retained_messages: count('form.field.maxRetainedMessages'),
    max_payload_size: v.optional(sizeArg('form.field.maxPayloadSize')),
    stop_publish_clear_msg: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.stopPublishClearMsg'))),
    delivery_rate: v.optional(v.pipe(v.string(), v.title('form.field.deliveryRate'), v.description('form.hint.rate'), v.regex(RATE, 'err.rate'))),
    batch_read_number: count('form.field.batchReadNumber'),
  }),
  aliases: ['retainer', '保留消息设置'],
  run: async (ctx, changes) => {
    const current = await ctx.api.retainer.settings()
    return ctx.api.retainer.updateSettings(applyRetainerChanges(current, changes))
  },
})

/** Retained messages, filtered by a topic filter (`retained.list topic=sensors/#`). */
export const listRetained = defineRead({
  id: 'retained.list',
  title: 'cmd.retained.list',
  group: 'cmdGroup.retainer',
  aliases: ['retained', '保留消息列表'],
  args: v.object({ topic: textFilter('topic'), ...pageArgs() }),
  complete: { topic: completeTopic },
  suggestOnly: ['topic'],
  run: (ctx, args) => ctx.api.retainer.messages(givenArgs(args)),
  table: pagedTable<RetainedSummary>([
    ['topic', (m) => m.topic],
    ['qos', (m) => m.qos],
    ['from_clientid', (m) => m.from_clientid],
    ['from_username', (m) => m.from_username],
    ['publish_at', (m) => shortTime(m.publish_at)],
  ]),
})

export const retainerCommands = [listRetained, deleteRetained, clearRetained, updateRetainer]
