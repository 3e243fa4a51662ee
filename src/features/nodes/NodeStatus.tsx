import { useTranslation } from 'react-i18next'

/** 'running' in green, anything else (EMQX: 'stopped') muted, with the word in the user's language. */
export function NodeStatus({ status }: { status: string }) {
  const { t } = useTranslation()
  const running = status === 'running'
  return <span className={`tag ${running ? 'tag-success' : 'tag-muted'}`}>{running ? t('nodes.running') : status === 'stopped' ? t('nodes.stopped') : status}</span>
}
