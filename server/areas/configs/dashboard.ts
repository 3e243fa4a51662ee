// The `dashboard` root (`/configs/dashboard`): the login tokens' lifetime (`token_expired_time`)
// is the embedded server's own and changes at once; the listener, the default user, the sample
// interval and the rest are shown as they are here and refused when changed.
import { dashboardListeners, dashboardSchema } from '../../../contract/configs.ts'
import { parseDuration } from '../../../contract/mqtt-configs.ts'
import type { Settings, SettingsStore } from '../../http/settings-route.ts'
import type { LoginGuard } from '../login/guard.ts'

/** Milliseconds as EMQX writes a duration: the largest unit that divides it. */
export function durationText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`
  if (ms % 60_000 === 0) return `${ms / 60_000}m`
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`
}

export interface DashboardHere {
  /** The console's port (`listeners.http.bind`): the one it listens on, known once it does. */
  port(): number
  /** The dashboard monitor's sample interval, milliseconds. */
  sampleIntervalMs: number
}

/** What stays as it is, in 5.8's order around `token_expired_time`. */
function keptValues(here: DashboardHere) {
  return {
    listeners: dashboardListeners(here.port()),
    default_username: 'admin',
    default_password: '******',
    sample_interval: durationText(here.sampleIntervalMs),
  }
}

const KEPT_AFTER = { cors: false, swagger_support: true, i18n_lang: 'en', bootstrap_users_file: '' }

export function dashboardSettings(guard: LoginGuard, here: DashboardHere, store: SettingsStore) {
  const schemaNow = () => dashboardSchema({ ...keptValues(here), ...KEPT_AFTER })
  // As it was written; EMQX's default is written '60m'.
  let ttlText = guard.ttl === 3_600_000 ? '60m' : durationText(guard.ttl)
  const settings: Settings<ReturnType<typeof schemaNow>> = {
    // Built when asked: the port is known once the server listens.
    get schema() {
      return schemaNow()
    },
    current: () => ({ ...keptValues(here), token_expired_time: ttlText, ...KEPT_AFTER }),
    // Only what is the server's own is kept: the rest (the port among it) is as it is at each start.
    store: {
      get: (key) => store.get(key),
      set: (key, value) => store.set(key, { token_expired_time: (value as { token_expired_time: string }).token_expired_time }),
    },
    key: 'dashboard',
    apply: (value) => {
      ttlText = value.token_expired_time
      guard.setTtl(parseDuration(ttlText) ?? guard.ttl)
    },
  }
  const defaults = () => ({ ...keptValues(here), token_expired_time: '60m', ...KEPT_AFTER })
  return { settings, defaults }
}
