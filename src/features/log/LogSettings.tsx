// Logging: the console handler and the file handler `default`, each a form of its update command
// (log.console.update, log.update) filled with the handlers in force (GET /configs/log).
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { updateLogConsole, updateLogFile } from '../../../commands/log.ts'
import { useApi } from '../../app/useApi.ts'
import { CommandSettings } from '../../ui/CommandSettings.tsx'
import { consoleValues, fileValues } from './logValues.ts'
import './log.css'

export function LogSettings() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.log.get(signal), [api])
  return (
    <div className="page log-page">
      <div className="page-header">
        <h1>{t('log.title')}</h1>
      </div>
      <p className="muted log-intro">{t('log.intro')}</p>
      <section className="log-section" aria-labelledby="log-file-title">
        <h2 id="log-file-title" className="card-title">
          {t('log.file')}
        </h2>
        <p className="muted">{t('log.fileIntro')}</p>
        <CommandSettings command={updateLogFile} load={load} toValues={fileValues} label={t('log.file')} />
      </section>
      <section className="log-section" aria-labelledby="log-console-title">
        <h2 id="log-console-title" className="card-title">
          {t('log.console')}
        </h2>
        <p className="muted">{t('log.consoleIntro')}</p>
        <CommandSettings command={updateLogConsole} load={load} toValues={consoleValues} label={t('log.console')} />
      </section>
    </div>
  )
}
