// Settings kept in the browser (SPEC 3): language, theme, sync with the OS theme, left bar collapse.
// Keys are the plain localStorage names `lang`, `theme`, `syncOsTheme`, `leftBarCollapse`.
import { atom } from 'jotai'

export type Lang = 'en' | 'zh'
export type Theme = 'light' | 'dark'

export interface Settings {
  lang: Lang
  theme: Theme
  syncOsTheme: boolean
}

/** What `saveSetting` accepts; the same pairs as `UiEffects.setSetting`. */
export interface SettingValues {
  lang: Lang
  theme: Theme
  syncOsTheme: boolean
}

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null
  } catch {
    return null // storage can be blocked (privacy mode); fall back to defaults
  }
}

function write(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value)
  } catch {
    // blocked storage: the setting lasts until the next reload only
  }
}

/** The language from storage, else Chinese when the browser locale starts with zh, else English. */
export function detectLang(stored: string | null, browserLang: string | undefined): Lang {
  if (stored === 'en' || stored === 'zh') return stored
  return browserLang?.toLowerCase().startsWith('zh') ? 'zh' : 'en'
}

export function readSettings(): Settings {
  const theme = read('theme')
  return {
    lang: detectLang(read('lang'), globalThis.navigator?.language),
    theme: theme === 'dark' ? 'dark' : 'light',
    syncOsTheme: read('syncOsTheme') !== 'false',
  }
}

export const settingsAtom = atom<Settings>(readSettings())

/** Stores one setting and reloads the page, as the spec asks for language, theme and OS sync. */
export function saveSetting<K extends keyof SettingValues>(key: K, value: SettingValues[K]): void {
  write(key, String(value))
  globalThis.location?.reload()
}

/**
 * The header's quick theme switch: stores an explicit theme, turns OS sync off (otherwise the
 * switch would have no effect) and applies it at once, without the reload the Settings page does.
 */
export const toggleThemeAtom = atom(null, (get, set, effective: Theme) => {
  const theme: Theme = effective === 'dark' ? 'light' : 'dark'
  write('theme', theme)
  write('syncOsTheme', 'false')
  set(settingsAtom, { ...get(settingsAtom), theme, syncOsTheme: false })
})

const leftBarBase = atom(read('leftBarCollapse') !== 'false')

/** The left menu shows icons only when true; default true (SPEC 9). Stored without a reload. */
export const leftBarCollapseAtom = atom(
  (get) => get(leftBarBase),
  (_get, set, collapsed: boolean) => {
    write('leftBarCollapse', String(collapsed))
    set(leftBarBase, collapsed)
  },
)

/** The theme actually shown: the OS preference when syncing, else the stored one. */
export function effectiveTheme(settings: Settings, osPrefersDark: boolean): Theme {
  if (settings.syncOsTheme) return osPrefersDark ? 'dark' : 'light'
  return settings.theme
}
