// Client operations. No React and no DOM: the palette, screens, scripts and the CLI share these.
import * as v from 'valibot'
import { defineCommand } from './define.ts'

/** Disconnects a client and clears its session (SPEC 4: a client can be kicked out). */
export const kickClient = defineCommand({
  id: 'client.kick',
  title: 'cmd.client.kick',
  group: 'cmdGroup.clients',
  args: v.object({ clientid: v.pipe(v.string(), v.title('clients.field.clientid'), v.minLength(1, 'err.required')) }),
  positional: ['clientid'],
  danger: true,
  aliases: ['kick', 'disconnect', '踢出'],
  complete: { clientid: (api, query, signal) => api.clients.suggest(query, signal) },
  describe: ({ clientid }) => ({ key: 'cmd.client.kickDescribe', values: { clientid } }),
  run: (ctx, { clientid }) => ctx.api.clients.kick(clientid),
})

export const clientCommands = [kickClient]
