// The top of an Advanced MQTT list (topic rewrite, auto subscribe): title, Refresh, Add (off once
// the list holds as many entries as EMQX takes, saying so) and the line saying what the list does.
import { useTranslation } from 'react-i18next'
import type { ServerData } from '../../app/useServerData.ts'
import { PageHeader } from '../../ui/PageHeader.tsx'
import './mqttSettings.css'

export interface ListHeaderProps {
  /** The i18n section: `<section>.title`, `.add`, `.full`, `.intro`. */
  section: 'topicRewrite' | 'autoSubscribe'
  list: Pick<ServerData<unknown>, 'refresh' | 'loading'>
  count: number
  max: number
  onAdd(): void
}

export function ListHeader({ section, list, count, max, onAdd }: ListHeaderProps) {
  const { t } = useTranslation()
  const full = count >= max
  return (
    <>
      <PageHeader title={t(`${section}.title`)} onRefresh={list.refresh} refreshing={list.loading}>
        <button type="button" className="btn btn-primary" disabled={full} title={full ? t(`${section}.full`, { max }) : undefined} onClick={onAdd}>
          {t(`${section}.add`)}
        </button>
      </PageHeader>
      <p className="muted mqtt-settings-intro">{t(`${section}.intro`)}</p>
    </>
  )
}
