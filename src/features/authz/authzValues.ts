// The authorization settings as the settings form's text values.
import type { AuthzSettings } from '../../api/authz.ts'
import type { FormValues } from '../../ui/SchemaForm.tsx'

export function authzValues(settings: AuthzSettings): FormValues {
  return {
    no_match: settings.no_match,
    deny_action: settings.deny_action,
    cache_enable: String(settings.cache.enable),
    cache_max_size: String(settings.cache.max_size),
    cache_ttl: settings.cache.ttl,
  }
}
