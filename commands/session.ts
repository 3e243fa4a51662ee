// The user's session: logout asks first ('Confirm to logout'); the shell clears state and notifies.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { requireUi } from './navigation.ts'

export const logout = defineCommand({
  id: 'session.logout',
  title: 'cmd.session.logout',
  group: 'cmdGroup.session',
  aliases: ['sign out', 'log out', 'exit'],
  args: v.object({}),
  confirm: true,
  needsUi: true,
  describe: () => ({ key: 'confirm.logout' }),
  run: (ctx) => requireUi(ctx).logout(),
})
