// What a detail screen shows until its object is there: loading, not found with the way back, or the
// failure with a retry. Nothing once it is ready.
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

export type DetailLoadKind = { kind: 'loading' | 'notFound' | 'ready' } | { kind: 'failed'; message: string }

export function DetailLoadState({
  load,
  className,
  notFound,
  back,
  failed,
  onRetry,
}: {
  load: DetailLoadKind
  /** The error card's class on this screen (its look is the screen's). */
  className: string
  /** Already translated. */
  notFound: string
  /** The link back to the list. */
  back: ReactNode
  /** Already translated. */
  failed: string
  onRetry: () => void
}) {
  const { t } = useTranslation()
  if (load.kind === 'loading') return <p className="muted">{t('table.loading')}</p>
  if (load.kind === 'notFound')
    return (
      <div className={`card ${className}`} role="alert">
        <strong>{notFound}</strong>
        {back}
      </div>
    )
  if (load.kind === 'failed')
    return (
      <div className={`card ${className}`} role="alert">
        <strong>{failed}</strong>
        <span className="muted">{load.message}</span>
        <button type="button" className="btn btn-sm" onClick={onRetry}>
          {t('table.retry')}
        </button>
      </div>
    )
  return null
}
