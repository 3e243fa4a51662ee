// Slow subscriptions: what is measured (settings) and clearing the records.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { durationArg, givenArgs, isDuration, keepsCurrent, parseDuration, type FieldKind } from './args.ts'

/** SPEC 5: the slow subscription threshold is at least 100 ms. */
export const SLOW_SUBS_MIN_THRESHOLD_MS = 100

export const updateSlowSubs = defineCommand({
  id: 'slowSubs.update',
  title: 'cmd.slowSubs.update',
  group: 'cmdGroup.slowSubs',
  changes: ['slowSubs'],
  // Each setting left out (an empty field) keeps its current value; the screen fills them all in.
  args: v.object({
    enable: keepsCurrent(v.pipe(v.boolean('err.boolean'), v.title('form.field.enable'), v.description('form.hint.slowSubsEnable'))),
    threshold: keepsCurrent(
      v.pipe(
        v.string(),
        v.title('form.field.slowSubsThreshold'),
        v.description('form.hint.slowSubsThreshold'),
        v.check((text: string) => isDuration(text), 'err.duration'),
        v.check((text: string) => (parseDuration(text) ?? 0) >= SLOW_SUBS_MIN_THRESHOLD_MS, 'err.slowSubsThreshold'),
        v.metadata({ field: 'duration' as FieldKind, literals: [] as string[] }),
      ),
    ),
    top_k_num: keepsCurrent(
      v.pipe(
        v.number('err.number'),
        v.title('form.field.slowSubsTopK'),
        v.description('form.hint.slowSubsTopK'),
        v.integer('err.integer'),
        v.minValue(1),
        v.maxValue(1000),
        v.metadata({ unit: 'form.unit.records' }),
      ),
    ),
    expire_interval: keepsCurrent(durationArg('form.field.slowSubsExpireInterval', { description: 'form.hint.slowSubsExpireInterval' })),
    stats_type: keepsCurrent(
      v.pipe(v.picklist(['whole', 'internal', 'response'], 'err.oneOf'), v.title('form.field.slowSubsStatsType'), v.description('form.hint.slowSubsStatsType')),
    ),
  }),
  aliases: ['slow subscriptions', 'slow subs', '慢订阅'],
  run: async (ctx, changes) => {
    const current = await ctx.api.slowSubs.settings()
    const given = givenArgs(changes)
    return ctx.api.slowSubs.updateSettings({ ...current, ...given })
  },
})

export const clearSlowSubs = defineCommand({
  id: 'slowSubs.clear',
  title: 'cmd.slowSubs.clear',
  group: 'cmdGroup.slowSubs',
  changes: ['slowSubs'],
  args: v.object({}),
  danger: true,
  aliases: ['clear slow subscriptions', '清除慢订阅'],
  describe: () => ({ key: 'cmd.slowSubs.clearDescribe' }),
  run: (ctx) => ctx.api.slowSubs.clear(),
})

export const slowSubsCommands = [updateSlowSubs, clearSlowSubs]
