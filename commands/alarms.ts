// Alarms: EMQX 5 clears an alarm when its condition does, or by hand (force_deactivate: raised again
// while the condition holds); the history of cleared alarms can be deleted, and the system
// monitor's watermarks changed.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { durationArg, givenArgs } from './args.ts'
import { defineRead, pagedTable, pageArgs, shortTime } from './format/read.ts'
import type { Alarm } from '../src/api/alarms.ts'

export const clearAlarmHistory = defineCommand({
  id: 'alarm.clear',
  title: 'cmd.alarm.clear',
  group: 'cmdGroup.alarms',
  changes: ['alarms'],
  args: v.object({}),
  danger: true,
  aliases: ['alarms', 'alarm history', '告警', '历史告警'],
  describe: () => ({ key: 'cmd.alarm.clearDescribe' }),
  run: (ctx) => ctx.api.alarms.clearHistory(),
})

export const deactivateAlarm = defineCommand({
  id: 'alarm.deactivate',
  title: 'cmd.alarm.deactivate',
  group: 'cmdGroup.alarms',
  changes: ['alarms'],
  args: v.object({ name: v.pipe(v.string(), v.title('form.field.alarmName'), v.nonEmpty('err.required')) }),
  positional: ['name'],
  aliases: ['force deactivate', 'clear alarm', '解除告警'],
  describe: ({ name }) => ({ key: 'cmd.alarm.deactivateDescribe', values: { name } }),
  run: (ctx, { name }) => ctx.api.alarms.forceDeactivate({ name }),
})

/** A percentage as EMQX writes it: `70%` (a bare `70` is taken as 70%). */
const percentArg = (title: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.title(title),
      v.description('form.hint.percent'),
      v.check((text: string) => {
        const m = /^(\d+(?:\.\d+)?)%?$/.exec(text.trim())
        return m !== null && Number(m[1]) <= 100
      }, 'err.percent'),
      v.transform((text: string) => (text.trim().endsWith('%') ? text.trim() : `${text.trim()}%`)),
    ),
  )

export const updateSysmon = defineCommand({
  id: 'sysmon.update',
  title: 'cmd.sysmon.update',
  group: 'cmdGroup.alarms',
  changes: ['sysmon'],
  args: v.object({
    cpu_check_interval: v.optional(durationArg('form.field.cpuCheckInterval')),
    cpu_high_watermark: percentArg('form.field.cpuHighWatermark'),
    cpu_low_watermark: percentArg('form.field.cpuLowWatermark'),
    mem_check_interval: v.optional(durationArg('form.field.memCheckInterval', { literals: ['disabled'] })),
    sysmem_high_watermark: percentArg('form.field.sysmemHighWatermark'),
    procmem_high_watermark: percentArg('form.field.procmemHighWatermark'),
  }),
  aliases: ['alarm settings', 'sysmon', 'watermark', '告警设置'],
  run: (ctx, args) => {
    const os = givenArgs(args) as Record<string, string>
    return ctx.api.sysmon.update({ os })
  },
})

/** `log,publish`, `log`, `publish` or `none`: what EMQX does when an alarm is activated or deactivated. */
const ALARM_ACTIONS = ['log', 'publish']

export const updateAlarmSettings = defineCommand({
  id: 'alarm.update',
  title: 'cmd.alarm.update',
  group: 'cmdGroup.alarms',
  changes: ['alarmConfig'],
  args: v.object({
    actions: v.optional(
      v.pipe(
        v.string(),
        v.title('form.field.alarmActions'),
        v.description('form.hint.alarmActions'),
        v.check((text: string) => text.trim() === 'none' || text.split(',').every((a) => ALARM_ACTIONS.includes(a.trim())), 'err.alarmActions'),
        v.transform((text: string) => (text.trim() === 'none' ? [] : [...new Set(text.split(',').map((a) => a.trim()))])),
      ),
    ),
    size_limit: v.optional(v.pipe(v.number('err.number'), v.title('form.field.alarmSizeLimit'), v.integer('err.integer'), v.minValue(1), v.maxValue(3000))),
    validity_period: v.optional(durationArg('form.field.alarmValidityPeriod')),
  }),
  aliases: ['alarm settings', '告警设置'],
  run: (ctx, args) => {
    const changes = givenArgs(args)
    return ctx.api.alarmConfig.update(changes)
  },
})

/** The activated alarms, or with `activated=false` the history. */
export const listAlarms = defineRead({
  id: 'alarms.list',
  title: 'cmd.alarms.list',
  group: 'cmdGroup.alarms',
  aliases: ['alarms', '告警列表'],
  args: v.object({ activated: v.optional(v.pipe(v.boolean('err.boolean'), v.title('filter.activated')), true), ...pageArgs() }),
  run: (ctx, args) => ctx.api.alarms.list(givenArgs(args)),
  table: pagedTable<Alarm>([
    ['name', (a) => a.name],
    ['message', (a) => a.message],
    ['activate_at', (a) => shortTime(a.activate_at)],
    ['deactivate_at', (a) => shortTime(a.deactivate_at)],
    ['node', (a) => a.node],
  ]),
})

export const alarmCommands = [listAlarms, deactivateAlarm, clearAlarmHistory, updateAlarmSettings, updateSysmon]
