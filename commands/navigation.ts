// One `go.<screen>` command per screen of the route table, so the palette, the `g x` shortcuts
// and scripts all navigate the same way.
import * as v from 'valibot'
import { defineCommand, type CommandContext } from './define.ts'
import { screens, type Screen } from './routes.ts'

/** The browser effects; commands marked `needsUi` never run without them. */
export function requireUi(ctx: CommandContext) {
  if (!ctx.ui) throw new Error('This command needs the browser')
  return ctx.ui
}

function goTo(screen: Screen) {
  return defineCommand({
    id: `go.${screen.id}`,
    title: screen.title,
    group: 'cmdGroup.navigation',
    aliases: [screen.path],
    args: v.object({}),
    shortcut: screen.shortcut,
    needsUi: true,
    run: async (ctx) => requireUi(ctx).navigate(screen.path),
  })
}

export const navigationCommands = screens.map(goTo)


