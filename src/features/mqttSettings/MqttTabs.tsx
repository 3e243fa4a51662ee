// Tabs between the MQTT settings screens (/mqtt/general, session, retainer, system-topic), as in
// EMQX's dashboard, where they are one MQTT page.
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import './mqttSettings.css'

const TABS = [
  { path: '/mqtt/general', title: 'nav.mqttGeneralTab' },
  { path: '/mqtt/session', title: 'nav.mqttSession' },
  { path: '/mqtt/retainer', title: 'nav.mqttRetainer' },
  { path: '/mqtt/system-topic', title: 'nav.systemTopic' },
] as const

export type MqttTab = (typeof TABS)[number]['path']

export function MqttTabs({ current }: { current: MqttTab }) {
  const { t } = useTranslation()
  return (
    <nav className="segmented mqtt-tabs" aria-label={t('mqttSettings.tabs')}>
      {TABS.map((tab) => (
        <Link
          key={tab.path}
          to={tab.path}
          className={`segmented-item${current === tab.path ? ' is-selected' : ''}`}
          aria-current={current === tab.path ? 'page' : undefined}
        >
          {t(tab.title)}
        </Link>
      ))}
    </nav>
  )
}
