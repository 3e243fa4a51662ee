// Alarms: EMQX 5 clears an alarm when its condition does (there is no manual deactivation); the
// history of cleared alarms can be deleted.
import * as v from 'valibot'
import { defineCommand } from './define.ts'

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

export const alarmCommands = [clearAlarmHistory]
