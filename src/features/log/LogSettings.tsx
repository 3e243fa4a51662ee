// Logging: the file handler `default` and the console handler, each a form of its update command
// (log.update, log.console.update) filled with the handlers in force (GET /configs/log).
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { updateLogConsole, updateLogFile } from '../../../commands/log.ts'
import { useApi } from '../../app/useApi.ts'
import { CommandSettings } from '../../ui/CommandSettings.tsx'
import { SettingsSection } from '../../ui/SettingsSection.tsx'
import { consoleValues, fileValues } from './logValues.ts'

export function LogSettings() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.log.get(signal), [api])
  return (
    <div className="page log-page">
      <div className="page-header">
        <h1>{t('log.title')}</h1>
      </div>
      <p className="muted settings-intro">{t('log.intro')}</p>
      <SettingsSection id="log-file" title={t('log.file')} intro={t('log.fileIntro')}>
        <CommandSettings command={updateLogFile} load={load} toValues={fileValues} label={t('log.file')} />
      </SettingsSection>
      <SettingsSection id="log-console" title={t('log.console')} intro={t('log.consoleIntro')}>
        <CommandSettings command={updateLogConsole} load={load} toValues={consoleValues} label={t('log.console')} />
      </SettingsSection>
    </div>
  )
}
