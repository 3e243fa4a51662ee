// The names EMQX's console gives mechanisms and backends, in the user's language.
import type { TFunction } from 'i18next'

export const mechanismLabel = (t: TFunction, mechanism: string) => t(`authn.mechanism.${mechanism}`, { defaultValue: mechanism })

export const backendLabel = (t: TFunction, backend: string | undefined) => (backend ? t(`authn.backend.${backend}`, { defaultValue: backend }) : '—')
