// A type's name for people: the catalogue's label in the chosen language, or the type's own id
// (an enterprise type this console has no words for).
import type { TFunction } from 'i18next'

export const typeLabel = (t: TFunction, type: string): string => t(`integrationFields.type.${type}`, { defaultValue: type })
