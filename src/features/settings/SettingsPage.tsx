// /settings: language, theme and sync with the OS theme. Each change is stored in this browser
// and reloads the page (SPEC 2), through the same commands the palette offers.
import { useAtomValue } from 'jotai'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { setLanguage, setSyncOsTheme, setTheme } from '../../../commands/settings.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { settingsAtom, type Lang, type Theme } from '../../state/settings.ts'

function Choice<T extends string>({
  label,
  value,
  options,
  disabled,
  onChange,
}: {
  label: string
  value: T
  options: { value: T; label: string; lang?: string }[]
  disabled?: boolean
  onChange(value: T): void
}) {
  return (
    <div className="segmented segmented-lg" role="radiogroup" aria-label={label}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          lang={option.lang}
          aria-checked={value === option.value}
          disabled={disabled}
          className={`segmented-item${value === option.value ? ' is-selected' : ''}`}
          onClick={() => value !== option.value && onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  )
}

export function SettingsPage() {
  const { t } = useTranslation()
  const settings = useAtomValue(settingsAtom)
  const run = useRunCommand()
  const syncId = useId()

  return (
    <div className="page settings-page">
      <div className="page-header">
        <h1>{t('settings.title')}</h1>
      </div>
      <section className="card settings-card" aria-labelledby={`${syncId}-general`}>
        <h2 className="card-title" id={`${syncId}-general`}>
          {t('settings.general')}
        </h2>
        <div className="settings-row">
          <div>
            <div className="settings-label">{t('settings.language')}</div>
            <div className="field-hint">{t('settings.languageHint')}</div>
          </div>
          <Choice<Lang>
            label={t('settings.language')}
            value={settings.lang}
            options={[
              { value: 'en', label: 'English', lang: 'en' },
              { value: 'zh', label: '中文', lang: 'zh-CN' },
            ]}
            onChange={(lang) => void run(setLanguage, { lang })}
          />
        </div>
        <div className="settings-row">
          <div>
            <div className="settings-label" id={syncId}>
              {t('settings.syncOsTheme')}
            </div>
            <div className="field-hint">{t('settings.syncOsThemeHint')}</div>
          </div>
          <button
            type="button"
            role="switch"
            className="switch"
            aria-checked={settings.syncOsTheme}
            aria-labelledby={syncId}
            onClick={() => void run(setSyncOsTheme, { enabled: !settings.syncOsTheme })}
          />
        </div>
        <div className="settings-row">
          <div>
            <div className="settings-label">{t('settings.theme')}</div>
            <div className="field-hint">
              {settings.syncOsTheme ? t('settings.themeSynced') : t('settings.themeHint')}
            </div>
          </div>
          <Choice<Theme>
            label={t('settings.theme')}
            value={settings.theme}
            disabled={settings.syncOsTheme}
            options={[
              { value: 'light', label: t('settings.light') },
              { value: 'dark', label: t('settings.dark') },
            ]}
            onChange={(theme) => void run(setTheme, { theme })}
          />
        </div>
        <p className="field-hint settings-note">{t('settings.reloadNote')}</p>
      </section>
    </div>
  )
}
