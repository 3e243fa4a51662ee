// The toast stack (bottom right): success and info are announced politely, errors as alerts.
// Each toast leaves after its timeout unless hovered or focused; errors stay longer.
import { useAtomValue, useStore } from 'jotai'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { dismiss, notificationsAtom, type Notification } from '../state/notifications.ts'
import './ui-widgets.css'

export function Notifications() {
  const list = useAtomValue(notificationsAtom)
  const { t } = useTranslation()
  return (
    <section className="toasts" aria-label={t('notify.region')}>
      {list.map((n) => (
        <Toast key={n.id} notification={n} />
      ))}
    </section>
  )
}

function Toast({ notification }: { notification: Notification }) {
  const store = useStore()
  const { t, i18n } = useTranslation()
  const [held, setHeld] = useState(false)
  const { id, kind, text, timeout } = notification

  useEffect(() => {
    if (held || timeout <= 0) return
    const timer = setTimeout(() => dismiss(store, id), timeout)
    return () => clearTimeout(timer)
  }, [held, timeout, store, id])

  const message =
    typeof text === 'string' ? (i18n.exists(text) ? t(text) : text) : t(text.key, text.values ?? {})

  return (
    <div
      className={`toast toast-${kind}`}
      role={kind === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <span className="toast-icon" aria-hidden="true">
        {kind === 'success' ? '✓' : kind === 'error' ? '!' : 'i'}
      </span>
      <span className="toast-text">{message}</span>
      <button type="button" className="btn btn-ghost btn-sm toast-close" aria-label={t('notify.dismiss')} onClick={() => dismiss(store, id)}>
        ×
      </button>
    </div>
  )
}
