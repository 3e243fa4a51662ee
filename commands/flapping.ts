// Flapping detection: ban client ids that disconnect too often within a time window.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { durationArg as durationField, givenArgs } from './args.ts'

/** EMQX durations: '30s', '1m', '1h30m', '500ms'. */
export const DURATION = /^(\d+(ms|s|m|h|d|w))+$/
export const durationArg = (title: string) => v.optional(durationField(title))

export const updateFlapping = defineCommand({
  id: 'flapping.update',
  title: 'cmd.flapping.update',
  group: 'cmdGroup.banned',
  changes: ['flapping'],
  args: v.object({
    enable: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.enable'))),
    window_time: durationArg('form.field.windowTime'),
    max_count: v.optional(v.pipe(v.number('err.number'), v.title('form.field.maxCount'), v.integer('err.integer'), v.minValue(1))),
    ban_time: durationArg('form.field.banTime'),
  }),
  aliases: ['flapping', 'flap', '连接抖动'],
  run: (ctx, args) => {
    const changes = givenArgs(args)
    return ctx.api.flapping.update(changes)
  },
})

export const flappingCommands = [updateFlapping]
