// Telemetry: turn the usage report to EMQ on or off. The server's answer is shown as it is (EMQX
// refuses an unchanged status; the embedded server never sends telemetry and refuses to turn it on).
import * as v from 'valibot'
import { defineCommand } from './define.ts'

export const setTelemetry = defineCommand({
  id: 'telemetry.update',
  title: 'cmd.telemetry.update',
  group: 'cmdGroup.telemetry',
  changes: ['telemetry'],
  args: v.object({ enable: v.pipe(v.boolean('err.boolean'), v.title('form.field.enable')) }),
  positional: ['enable'],
  aliases: ['telemetry', '遥测'],
  run: (ctx, { enable }) => ctx.api.telemetry.setStatus(enable),
})

export const telemetryCommands = [setTelemetry]
