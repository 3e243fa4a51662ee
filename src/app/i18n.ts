// i18next with both locales bundled (they are small), the language chosen once at start-up.
import i18next, { type i18n as I18n } from 'i18next'
import { initReactI18next } from 'react-i18next'
import en from '../../locales/en.json'
import zh from '../../locales/zh.json'
import type { Lang } from '../state/settings.ts'

export const i18n: I18n = i18next.createInstance()

export function initI18n(lang: Lang): I18n {
  void i18n.use(initReactI18next).init({
    resources: { en: { translation: en }, zh: { translation: zh } },
    lng: lang,
    fallbackLng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes
  })
  if (typeof document !== 'undefined') document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en'
  return i18n
}

/** EMQX documentation in the UI language. */
export function docsUrl(lang: Lang): string {
  return `https://docs.emqx.com/${lang === 'zh' ? 'zh' : 'en'}/emqx/latest/`
}
