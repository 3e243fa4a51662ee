// Language, theme and OS-theme sync: stored locally by the shell, which reloads the page.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { requireUi } from './navigation.ts'

export const setLanguage = defineCommand({
  id: 'settings.language',
  title: 'cmd.settings.language',
  group: 'cmdGroup.settings',
  aliases: ['lang', 'language', '语言'],
  args: v.object({ lang: v.pipe(v.picklist(['en', 'zh'], 'err.oneOf'), v.title('form.field.lang')) }),
  positional: ['lang'],
  needsUi: true,
  run: async (ctx, { lang }) => requireUi(ctx).setSetting('lang', lang),
})

export const setTheme = defineCommand({
  id: 'settings.theme',
  title: 'cmd.settings.theme',
  group: 'cmdGroup.settings',
  aliases: ['dark', 'light'],
  args: v.object({ theme: v.pipe(v.picklist(['light', 'dark'], 'err.oneOf'), v.title('form.field.theme')) }),
  positional: ['theme'],
  needsUi: true,
  run: async (ctx, { theme }) => requireUi(ctx).setSetting('theme', theme),
})

export const setSyncOsTheme = defineCommand({
  id: 'settings.syncOsTheme',
  title: 'cmd.settings.syncOsTheme',
  group: 'cmdGroup.settings',
  aliases: ['os', 'system theme'],
  args: v.object({ enabled: v.pipe(v.boolean('err.boolean'), v.title('form.field.enabled')) }),
  positional: ['enabled'],
  needsUi: true,
  run: async (ctx, { enabled }) => requireUi(ctx).setSetting('syncOsTheme', enabled),
})

export const settingsCommands = [setLanguage, setTheme, setSyncOsTheme]
