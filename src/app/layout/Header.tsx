// The top bar: where you are (menu group › screen › detail), the palette hint, help, theme, user menu.
import { Link, useMatches, useRouterState } from '@tanstack/react-router'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { menu, screenById, type MenuItem } from '../../../commands/routes.ts'
import { effectiveTheme, settingsAtom, toggleThemeAtom } from '../../state/settings.ts'
import { isMac } from '../commands/shortcuts.ts'
import { docsUrl } from '../i18n.ts'
import { paletteOpenAtom } from '../palette/PaletteHost.tsx'
import { Icon } from './icons.tsx'
import { isItemActive } from './Menu.tsx'
import { UserMenu } from './UserMenu.tsx'

interface Crumb {
  label: string
  to?: string
  mono?: boolean
}

function findMenuItem(pathname: string): { titles: string[]; item: MenuItem } | null {
  for (const group of menu)
    for (const entry of group.items) {
      if ('screen' in entry) {
        if (isItemActive(entry, pathname)) return { titles: [group.title], item: entry }
        continue
      }
      for (const item of entry.items)
        if (isItemActive(item, pathname)) return { titles: [group.title, entry.title], item }
    }
  return null
}

function useCrumbs(): Crumb[] {
  const { t } = useTranslation()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const matches = useMatches()
  const leaf = [...matches].reverse().find((match) => match.staticData?.title)
  const title = leaf?.staticData?.title
  const crumbs: Crumb[] = []
  const found = findMenuItem(pathname)
  if (found) {
    for (const groupTitle of found.titles) crumbs.push({ label: t(groupTitle) })
    const screen = screenById(found.item.screen)
    if (screen && screen.title !== title) crumbs.push({ label: t(screen.title), to: screen.path })
  }
  if (title) crumbs.push({ label: t(title) })
  // A detail page names what it shows: the client id, node name, rule id...
  const params = Object.values((leaf?.params ?? {}) as Record<string, string>).filter(Boolean)
  if (params.length) crumbs.push({ label: params.join(' / '), mono: true })
  return crumbs
}

function useOsPrefersDark(): boolean {
  const query = '(prefers-color-scheme: dark)'
  const [dark, setDark] = useState(() => typeof matchMedia === 'function' && matchMedia(query).matches)
  useEffect(() => {
    if (typeof matchMedia !== 'function') return
    const list = matchMedia(query)
    const onChange = () => setDark(list.matches)
    list.addEventListener('change', onChange)
    return () => list.removeEventListener('change', onChange)
  }, [])
  return dark
}

export function Header() {
  const { t } = useTranslation()
  const crumbs = useCrumbs()
  const settings = useAtomValue(settingsAtom)
  const toggleTheme = useSetAtom(toggleThemeAtom)
  const openPalette = useSetAtom(paletteOpenAtom)
  const theme = effectiveTheme(settings, useOsPrefersDark())
  const current = crumbs[crumbs.length - 1]

  useEffect(() => {
    const page = crumbs.filter((crumb) => !crumb.mono).pop()
    document.title = page ? `${page.label} · ${t('shell.brand')}` : t('shell.brand')
  })

  return (
    <header className="header">
      <nav className="breadcrumb" aria-label={t('shell.breadcrumb')}>
        <ol>
          {crumbs.map((crumb, index) => (
            <li key={index} className={crumb === current ? 'is-current' : undefined}>
              {crumb.to ? (
                <Link to={crumb.to}>{crumb.label}</Link>
              ) : (
                <span className={crumb.mono ? 'mono' : undefined} aria-current={crumb === current ? 'page' : undefined}>
                  {crumb.label}
                </span>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <div className="header-actions">
        <button type="button" className="palette-hint" onClick={() => openPalette(true)} aria-label={t('shell.openPalette')}>
          <Icon name="search" size={15} />
          <span className="palette-hint-text">{t('shell.paletteHint')}</span>
          <span className="palette-hint-keys">
            <kbd className="kbd">{isMac ? '⌘' : 'Ctrl'}</kbd>
            <kbd className="kbd">K</kbd>
          </span>
        </button>
        <a
          className="btn btn-ghost btn-icon"
          href={docsUrl(settings.lang)}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('shell.help')}
          title={t('shell.help')}
        >
          <Icon name="help" />
        </a>
        <button
          type="button"
          className="btn btn-ghost btn-icon"
          onClick={() => toggleTheme(theme)}
          aria-label={theme === 'dark' ? t('shell.toLight') : t('shell.toDark')}
          title={theme === 'dark' ? t('shell.toLight') : t('shell.toDark')}
        >
          <Icon name={theme === 'dark' ? 'sun' : 'moon'} />
        </button>
        <UserMenu />
      </div>
    </header>
  )
}
