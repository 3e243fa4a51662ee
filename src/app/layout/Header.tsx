// The top bar: where you are (menu group › screen › detail), the palette hint, help, theme, user menu.
import { Link, useMatches, useRouterState } from '@tanstack/react-router'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { effectiveTheme, settingsAtom, toggleThemeAtom } from '../../state/settings.ts'
import { isMac } from '../commands/shortcuts.ts'
import { docsUrl } from '../i18n.ts'
import { paletteOpenAtom } from '../palette/PaletteHost.tsx'
import { Icon } from './icons.tsx'
import { breadcrumbTrail, shortenMiddle, type Crumb } from './breadcrumbs.ts'
import { escapeControl } from '../../ui/escapeControl.ts'
import { UserMenu } from './UserMenu.tsx'

interface ShownCrumb extends Crumb {
  /** The full id behind a shortened one. */
  full?: string
}

function useCrumbs(): ShownCrumb[] {
  const { t } = useTranslation()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const matches = useMatches()
  const leaf = [...matches].reverse().find((match) => match.staticData?.title)
  // A detail page names what it shows: the client id, node name, rule id...
  const params = Object.values((leaf?.params ?? {}) as Record<string, string>)
  return breadcrumbTrail(pathname, leaf?.staticData?.title, params).map((crumb) => {
    if (!crumb.id) return { ...crumb, label: t(crumb.label) }
    const full = escapeControl(crumb.label)
    return { ...crumb, label: shortenMiddle(full), full }
  })
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
    const page = crumbs.filter((crumb) => !crumb.id).pop()
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
                <span
                  className={crumb.id ? 'mono breadcrumb-id' : undefined}
                  title={crumb.full !== crumb.label ? crumb.full : undefined}
                  aria-current={crumb === current ? 'page' : undefined}
                >
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
