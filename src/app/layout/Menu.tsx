// The left menu, generated from the menu groups in commands/routes.ts. Collapsed (the default),
// it shows one icon per group with a flyout of the group's screens.
import { Link, useRouterState } from '@tanstack/react-router'
import { useAtom } from 'jotai'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { menu, screenById, type MenuGroup, type MenuItem } from '../../../commands/routes.ts'
import { leftBarCollapseAtom } from '../../state/settings.ts'
import { Icon, Logo, isIconName } from './icons.tsx'

function underPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)
}

/** Whether a menu item is the current screen: its own path or any of its `match` prefixes. */
export function isItemActive(item: MenuItem, pathname: string): boolean {
  const screen = screenById(item.screen)
  if (screen && underPrefix(pathname, screen.path)) return true
  return (item.match ?? []).some((prefix) => underPrefix(pathname, prefix))
}

function flatItems(group: MenuGroup): MenuItem[] {
  return group.items.flatMap((entry) => ('screen' in entry ? [entry] : entry.items))
}

export function isGroupActive(group: MenuGroup, pathname: string): boolean {
  return flatItems(group).some((item) => isItemActive(item, pathname))
}

/** Blur after a click so a collapsed group's flyout (shown on :focus-within) closes. */
function blurActive() {
  if (document.activeElement instanceof HTMLElement) document.activeElement.blur()
}

function ItemLink({ item, pathname, nested }: { item: MenuItem; pathname: string; nested?: boolean }) {
  const { t } = useTranslation()
  const screen = screenById(item.screen)
  if (!screen) return null
  const active = isItemActive(item, pathname)
  return (
    <li>
      <Link
        to={screen.path}
        className={`menu-item${nested ? ' menu-item-nested' : ''}${active ? ' is-active' : ''}`}
        aria-current={active ? 'page' : undefined}
        onClick={blurActive}
      >
        <span className="menu-item-text">{t(screen.title)}</span>
      </Link>
    </li>
  )
}

function GroupItems({ group, pathname }: { group: MenuGroup; pathname: string }) {
  const { t } = useTranslation()
  const [openSub, setOpenSub] = useState<Record<string, boolean>>({})
  return (
    <ul className="menu-items">
      {group.items.map((entry) => {
        if ('screen' in entry) return <ItemLink key={entry.screen} item={entry} pathname={pathname} />
        const active = entry.items.some((item) => isItemActive(item, pathname))
        const open = openSub[entry.title] ?? true
        return (
          <li key={entry.title}>
            <button
              type="button"
              className={`menu-sub-toggle${active ? ' has-active' : ''}`}
              aria-expanded={open}
              onClick={() => setOpenSub((state) => ({ ...state, [entry.title]: !open }))}
            >
              <span className="menu-item-text">{t(entry.title)}</span>
              <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
            </button>
            {open && (
              <ul className="menu-items">
                {entry.items.map((item) => (
                  <ItemLink key={item.screen} item={item} pathname={pathname} nested />
                ))}
              </ul>
            )}
          </li>
        )
      })}
    </ul>
  )
}

function ExpandedGroup({ group, pathname }: { group: MenuGroup; pathname: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(true)
  const active = isGroupActive(group, pathname)
  const icon = isIconName(group.id) ? group.id : 'clusterOverview'
  // A one-screen group (Cluster Overview) is a plain link, not a folder.
  const single = group.items.length === 1 && 'screen' in group.items[0] ? group.items[0] : null
  if (single) {
    const screen = screenById(single.screen)
    return (
      <li className="menu-group">
        <Link
          to={screen?.path ?? '/'}
          className={`menu-group-head${active ? ' is-active' : ''}`}
          aria-current={active ? 'page' : undefined}
        >
          <Icon name={icon} />
          <span className="menu-item-text">{t(group.title)}</span>
        </Link>
      </li>
    )
  }
  return (
    <li className="menu-group">
      <button
        type="button"
        className={`menu-group-head${active ? ' has-active' : ''}`}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <Icon name={icon} />
        <span className="menu-item-text">{t(group.title)}</span>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} className="menu-chevron" />
      </button>
      {open && <GroupItems group={group} pathname={pathname} />}
    </li>
  )
}

function CollapsedGroup({ group, pathname }: { group: MenuGroup; pathname: string }) {
  const { t } = useTranslation()
  const active = isGroupActive(group, pathname)
  const icon = isIconName(group.id) ? group.id : 'clusterOverview'
  return (
    <li className="menu-group menu-group-collapsed">
      <button
        type="button"
        className={`menu-icon-button${active ? ' is-active' : ''}`}
        aria-label={t(group.title)}
        aria-haspopup="true"
      >
        <Icon name={icon} size={19} />
      </button>
      <div className="menu-flyout" role="group" aria-label={t(group.title)}>
        <div className="menu-flyout-title">{t(group.title)}</div>
        <GroupItems group={group} pathname={pathname} />
      </div>
    </li>
  )
}

export function Menu() {
  const { t } = useTranslation()
  const [collapsed, setCollapsed] = useAtom(leftBarCollapseAtom)
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  return (
    <nav className={`menu${collapsed ? ' is-collapsed' : ''}`} aria-label={t('shell.mainMenu')}>
      <Link to="/" className="menu-brand" aria-label={t('shell.brand')}>
        <Logo size={26} />
        <span className="menu-brand-text">{t('shell.brand')}</span>
      </Link>
      <ul className="menu-groups">
        {menu.map((group) =>
          collapsed ? (
            <CollapsedGroup key={group.id} group={group} pathname={pathname} />
          ) : (
            <ExpandedGroup key={group.id} group={group} pathname={pathname} />
          ),
        )}
      </ul>
      <button
        type="button"
        className="menu-collapse"
        onClick={() => setCollapsed(!collapsed)}
        aria-label={collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
        title={collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
      >
        <Icon name="panelLeft" />
        <span className="menu-item-text">{t('shell.collapseMenu')}</span>
      </button>
    </nav>
  )
}
