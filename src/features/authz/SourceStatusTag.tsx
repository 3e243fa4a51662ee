// A source's status as a tag: connected in green, anything else muted, unknown as a dash.
import { useTranslation } from 'react-i18next'

export function SourceStatusTag({ status }: { status: string }) {
  const { t } = useTranslation()
  if (!status) return <>—</>
  return <span className={`tag ${status === 'connected' ? 'tag-success' : 'tag-muted'}`}>{t(`authz.status.${status}`, { defaultValue: status })}</span>
}
