// Any unknown path (SPEC 2): 'This page could not be found', with a way home.
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'

export function NotFound() {
  const { t } = useTranslation()
  return (
    <div className="notice-page">
      <div className="notice-code" aria-hidden="true">
        404
      </div>
      <h1 className="notice-title">{t('common.notFound')}</h1>
      <p className="muted">{t('shell.notFoundHint')}</p>
      <Link to="/" className="btn btn-primary">
        {t('shell.backHome')}
      </Link>
    </div>
  )
}
