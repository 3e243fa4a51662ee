// The top of a screen: its title on the left; on the right whatever comes before the refresh
// button (an auto-refresh switch), the refresh button when the screen reads the server, and the
// screen's own actions after it.
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

export interface PageHeaderProps {
  title: ReactNode
  /** Shows the Refresh button. */
  onRefresh?(): void
  /** A read is under way: Refresh waits. */
  refreshing?: boolean
  before?: ReactNode
  /** Actions after Refresh (Clear all, Clear history). */
  children?: ReactNode
}

export function PageHeader({ title, onRefresh, refreshing = false, before, children }: PageHeaderProps) {
  const { t } = useTranslation()
  return (
    <div className="page-header">
      <h1>{title}</h1>
      <div>
        {before}
        {onRefresh ? (
          <button type="button" className="btn" onClick={onRefresh} disabled={refreshing}>
            {t('common.refresh')}
          </button>
        ) : null}
        {children}
      </div>
    </div>
  )
}
