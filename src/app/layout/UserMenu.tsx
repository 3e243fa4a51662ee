// The user menu: who is logged in, Settings, Change password, and Logout (through the command
// registry, so it is confirmed, logged in the terminal and notified like every other operation).
import { Link } from '@tanstack/react-router'
import { useAtomValue } from 'jotai'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { logout as logoutCommand } from '../../../commands/session.ts'
import { ChangePasswordDialog } from '../../features/login/ChangeDefaultPassword.tsx'
import { sessionAtom } from '../../state/session.ts'
import { useRunCommand } from '../commands/useRunCommand.ts'
import { Icon } from './icons.tsx'

export function UserMenu() {
  const { t } = useTranslation()
  const session = useAtomValue(sessionAtom)
  const run = useRunCommand()
  const [open, setOpen] = useState(false)
  const [changingPassword, setChangingPassword] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const menuId = useId()

  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false)
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  const username = session?.username ?? ''
  return (
    <div className="user-menu" ref={root}>
      <button
        type="button"
        className="user-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
      >
        <span className="avatar" aria-hidden="true">
          {username.slice(0, 1).toUpperCase() || '?'}
        </span>
        <span className="user-menu-name">{username}</span>
        <Icon name="chevronDown" size={14} />
      </button>
      {open && (
        <div className="dropdown" role="menu" id={menuId} aria-label={t('shell.userMenu')}>
          <div className="dropdown-caption">
            <span className="muted">{t('shell.signedInAs')}</span>
            <strong>{username}</strong>
          </div>
          <Link to="/settings" role="menuitem" className="dropdown-item" onClick={() => setOpen(false)}>
            <Icon name="settings" size={16} />
            {t('shell.settings')}
          </Link>
          <button
            type="button"
            role="menuitem"
            className="dropdown-item"
            onClick={() => {
              setOpen(false)
              setChangingPassword(true)
            }}
          >
            <Icon name="key" size={16} />
            {t('password.change')}
          </button>
          <div className="dropdown-divider" role="separator" />
          <button
            type="button"
            role="menuitem"
            className="dropdown-item dropdown-item-danger"
            onClick={() => {
              setOpen(false)
              void run(logoutCommand, {})
            }}
          >
            <Icon name="logout" size={16} />
            {t('session.logout')}
          </button>
        </div>
      )}
      {changingPassword && session && (
        <ChangePasswordDialog username={session.username} onClose={() => setChangingPassword(false)} />
      )}
    </div>
  )
}
