// "Reading every page: 34,000 of 100,000" while the list-all helper runs; nothing otherwise.
import { useTranslation } from 'react-i18next'
import type { ListProgress } from '../app/useServerList.ts'

export function ListProgressNote({ progress }: { progress: ListProgress | null }) {
  const { t, i18n } = useTranslation()
  if (!progress) return null
  const number = (n: number) => n.toLocaleString(i18n.language)
  return (
    <span className="muted" role="status">
      {progress.total === undefined
        ? t('table.readingAllNoTotal', { loaded: number(progress.loaded) })
        : t('table.readingAll', { loaded: number(progress.loaded), total: number(progress.total) })}
    </span>
  )
}
