// Tabs between the slow subscriptions list and their settings (two routes, as in EMQX's dashboard).
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import './slowSubs.css'

export function SlowSubTabs({ current }: { current: 'list' | 'config' }) {
  const { t } = useTranslation()
  return (
    <nav className="segmented slow-sub-tabs" aria-label={t('slowSubs.tabs')}>
      <Link to="/slow-sub/list" className={`segmented-item${current === 'list' ? ' is-selected' : ''}`} aria-current={current === 'list' ? 'page' : undefined}>
        {t('slowSubs.list')}
      </Link>
      <Link to="/slow-sub/config" className={`segmented-item${current === 'config' ? ' is-selected' : ''}`} aria-current={current === 'config' ? 'page' : undefined}>
        {t('slowSubs.settings')}
      </Link>
    </nav>
  )
}
