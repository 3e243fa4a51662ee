// The dashboard monitor: its charts read GET /monitor and /monitor_current (no commands); the stored
// samples behind the charts can be deleted.
import * as v from 'valibot'
import { defineCommand } from './define.ts'

export const clearMonitorData = defineCommand({
  id: 'monitor.clear',
  title: 'cmd.monitor.clear',
  group: 'cmdGroup.monitor',
  changes: ['monitor'],
  args: v.object({}),
  danger: true,
  aliases: ['clear statistics', 'reset charts', '清除监控数据'],
  describe: () => ({ key: 'cmd.monitor.clearDescribe' }),
  run: (ctx) => ctx.api.monitor.clear(),
})

export const monitorCommands = [clearMonitorData]
