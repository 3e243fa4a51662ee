// Basic Config (/basic-config): the dashboard settings of GET /configs/dashboard as
// dashboard.update's form (the login tokens' lifetime is applied at once; the rest is kept at
// EMQX's defaults and a change is refused by the server, shown as it words it), and the console's
// own HTTP listener below it, as it is.
import { useCallback, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { updateDashboard } from '../../../commands/configs.ts'
import type { DashboardConfig } from '../../api/configs.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { FieldGrid, type GridField } from '../../ui/FieldGrid.tsx'
import { SettingsSection } from '../../ui/SettingsSection.tsx'
import { SettingsScreen } from '../mqttSettings/SettingsScreen.tsx'

const dashboardValues = (config: DashboardConfig) => ({
  token_expired_time: config.token_expired_time,
  sample_interval: config.sample_interval,
  default_username: config.default_username ?? '',
  cors: String(config.cors),
  swagger_support: String(config.swagger_support),
  i18n_lang: config.i18n_lang,
  bootstrap_users_file: config.bootstrap_users_file ?? '',
})

export function BasicConfig() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.configs.dashboard.get(signal), [api])
  const config = useServerData(['configs'], (signal) => api.configs.dashboard.get(signal), [api])
  const listener = useMemo((): GridField[] => {
    const http = config.data?.listeners.http
    if (!http) return []
    return Object.entries(http).map(([key, value]) => ({ id: key, label: key, text: String(value), mono: true }))
  }, [config.data])

  return (
    <SettingsScreen className="basic-config-page" title={t('basicConfig.title')} intro={t('basicConfig.intro')} command={updateDashboard} load={load} toValues={dashboardValues}>
      {listener.length > 0 ? (
        <SettingsSection id="basic-config-listener" title={t('basicConfig.listener')} intro={t('basicConfig.listenerIntro')}>
          <div className="card settings-form">
            <FieldGrid fields={listener} />
          </div>
        </SettingsSection>
      ) : null}
    </SettingsScreen>
  )
}
