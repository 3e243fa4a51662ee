// Limiter (/limiter): the node-level rates of GET /configs/limiter as limiter.update's form. The
// embedded broker keeps them at EMQX's defaults, so a change comes back as the server's refusal;
// a listener's own max_conn_rate is set on the listener.
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { updateLimiter } from '../../../commands/configs.ts'
import type { LimiterConfig } from '../../api/configs.ts'
import { useApi } from '../../app/useApi.ts'
import { SettingsScreen } from '../mqttSettings/SettingsScreen.tsx'

const limiterValues = (limiter: LimiterConfig) => ({
  max_conn_rate: limiter.max_conn_rate ?? '',
  messages_rate: limiter.messages_rate ?? '',
  bytes_rate: limiter.bytes_rate ?? '',
})

export function Limiter() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.configs.limiter.get(signal), [api])
  return <SettingsScreen className="limiter-page" title={t('limiter.title')} intro={t('limiter.intro')} command={updateLimiter} load={load} toValues={limiterValues} />
}
