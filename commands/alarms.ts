// Alarms: EMQX 5 clears an alarm when its condition does (there is no manual deactivation); the
// history of cleared alarms can be deleted, and the system monitor's watermarks changed.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { durationArg } from './args.ts'

export const clearAlarmHistory = defineCommand({
  id: 'alarm.clear',
  title: 'cmd.alarm.clear',
  group: 'cmdGroup.alarms',
  args: v.object({}),
  danger: true,
  aliases: ['alarms', 'alarm history', '告警', '历史告警'],
  describe: () => ({ key: 'cmd.alarm.clearDescribe' }),
  run: (ctx) => ctx.api.alarms.clearHistory(),
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
  args: v.object({
    cpu_check_interval: v.optional(durationArg('form.field.cpuCheckInterval')),
    cpu_high_watermark: percentArg('form.field.cpuHighWatermark'),
    cpu_low_watermark: percentArg('form.field.cpuLowWatermark'),
    mem_check_interval: v.optional(durationArg('form.field.memCheckInterval', { literals: ['disabled'] })),
    sysmem_high_watermark: percentArg('form.field.sysmemHighWatermark'),
  }),
  aliases: ['alarm settings', 'sysmon', 'watermark', '告警设置'],
  run: (ctx, args) => {
    const os = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined)) as Record<string, string>
    return ctx.api.sysmon.update({ os })
  },
})

export const alarmCommands = [clearAlarmHistory, updateSysmon]
