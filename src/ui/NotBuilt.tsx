// A screen of the route table that this release does not build yet: says so plainly, offers nothing fake.
import { useTranslation } from 'react-i18next'

export function NotBuilt({ title }: { title: string }) {
  const { t } = useTranslation()
  const name = t(title)
  return (
    <div className="page">
      <div className="page-header">
        <h1>{name}</h1>
      </div>
      <div className="card notbuilt">
        <svg className="notbuilt-icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
          <path
            d="M3 21h18M5 21V9l7-5 7 5v12M9 21v-6h6v6"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <div>
          <p className="notbuilt-title">{t('shell.notBuiltTitle', { name })}</p>
          <p className="muted">{t('shell.notBuiltHint')}</p>
        </div>
      </div>
    </div>
  )
}
