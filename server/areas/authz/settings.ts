// The authorization settings (EMQX `authorization`: no_match, deny_action, cache), applied live to
// the broker's AccessControl and its cache, kept under `feature.authorization`.
import { AuthzSettingsSchema, type AuthzSettings } from '../../../contract/authz.ts'
import { parseDuration } from '../../../contract/units.ts'
import type { AccessControl } from '../../broker/access-control.ts'
import type { Settings, SettingsStore } from '../../http/settings-route.ts'

/** Milliseconds as EMQX writes a duration: the largest unit that divides it. */
export function durationOf(ms: number): string {
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`
  return `${ms}ms`
}

export function authzSettings(access: AccessControl, store: SettingsStore): Settings<typeof AuthzSettingsSchema> {
  return {
    schema: AuthzSettingsSchema,
    store,
    key: 'authorization',
    current: (): AuthzSettings => ({
      no_match: access.settings.noMatch,
      deny_action: access.settings.denyAction,
      cache: {
        enable: access.cache.settings.enable,
        max_size: access.cache.settings.maxSize,
        ttl: durationOf(access.cache.settings.ttlMs),
        excludes: [...access.cache.settings.excludes],
      },
    }),
    apply: (value) => {
      access.settings = { noMatch: value.no_match, denyAction: value.deny_action }
      const { enable, max_size, ttl, excludes } = value.cache
      access.cache.settings = { enable, maxSize: max_size, ttlMs: parseDuration(ttl)!, excludes }
      access.cache.clear()
    },
  }
}
