import { useTranslation } from 'react-i18next'
import type { TraceStatus } from '../../api/trace.ts'

const TONE: Record<TraceStatus, string> = { waiting: 'tag-warning', running: 'tag-success', stopped: 'tag-muted' }

/** A trace's status: waiting for its start, running, or stopped. */
export function TraceStatusTag({ status }: { status: TraceStatus }) {
  const { t } = useTranslation()
  return <span className={`tag ${TONE[status]}`}>{t(`logTrace.status.${status}`)}</span>
}
