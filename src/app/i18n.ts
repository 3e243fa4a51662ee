// i18next with each language's strings in chunks of their own: start-up loads the part of the chosen
// language that /login shows (src/app/loginStrings.ts) before the first render; the shell loads
// whole languages, and a language switch loads its language first.
import i18next, { type i18n as I18n, type ResourceKey } from 'i18next'
import { initReactI18next } from 'react-i18next'
import type { Lang } from '../state/settings.ts'

export const i18n: I18n = i18next.createInstance()

type Load = () => Promise<{ default: ResourceKey }>

const loginParts: Record<Lang, Load> = {
  en: () => import('../../locales/en.json?part=login'),
  zh: () => import('../../locales/zh.json?part=login'),
}

const wholeLanguages: Record<Lang, Load> = {
  en: () => import('../../locales/en.json'),
  zh: () => import('../../locales/zh.json'),
}

function setDocumentLang(lang: Lang): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en'
}

/** Start-up: the strings /login shows are in before the first render, so no key shows untranslated. */
export async function initI18n(lang: Lang): Promise<I18n> {
  const { default: translation } = await loginParts[lang]()
  await i18n.use(initReactI18next).init({
    resources: { [lang]: { translation } },
    lng: lang,
    fallbackLng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes
  })
  setDocumentLang(lang)
  return i18n
}

const loads = new Map<Lang, Promise<void>>()

/** Adds a whole language's strings, once (a failed load is tried again on the next call). */
export function loadLanguage(lang: Lang): Promise<void> {
  let pending = loads.get(lang)
  if (!pending) {
    pending = wholeLanguages[lang]().then(({ default: translation }) => {
      i18n.addResourceBundle(lang, 'translation', translation, true, true)
    })
    pending.catch(() => loads.delete(lang))
    loads.set(lang, pending)
  }
  return pending
}

/** Every language's strings: the shell's palette matches command titles in each of them. */
export async function loadAllLanguages(): Promise<void> {
  await Promise.all((Object.keys(wholeLanguages) as Lang[]).map(loadLanguage))
}

/** EMQX documentation in the UI language. */
export function docsUrl(lang: Lang): string {
  return `https://docs.emqx.com/${lang === 'zh' ? 'zh' : 'en'}/emqx/latest/`
}
