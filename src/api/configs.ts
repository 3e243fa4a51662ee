// The node's own config roots (`/configs/dashboard`, `/configs/limiter`): read, and changed by a
// PUT that EMQX merges into the settings in force and answers with the result.
import { DashboardConfigReadSchema, LimiterReadSchema, type DashboardConfig, type LimiterConfig } from '../../contract/configs.ts'
import type { Http } from './http.ts'

export type { DashboardConfig, LimiterConfig } from '../../contract/configs.ts'

export function configsApi(http: Http) {
  return {
    dashboard(signal?: AbortSignal): Promise<DashboardConfig> {
      return http.get('configs/dashboard', DashboardConfigReadSchema, undefined, signal)
    },
    /** Only the keys given change; the server refuses (400) what it keeps when it differs. */
    updateDashboard(changes: Partial<DashboardConfig>): Promise<DashboardConfig> {
      return http.send('put', 'configs/dashboard', DashboardConfigReadSchema, changes)
    },
    limiter(signal?: AbortSignal): Promise<LimiterConfig> {
      return http.get('configs/limiter', LimiterReadSchema, undefined, signal)
    },
    updateLimiter(changes: LimiterConfig): Promise<LimiterConfig> {
      return http.send('put', 'configs/limiter', LimiterReadSchema, changes)
    },
  }
}

export type ConfigsApi = ReturnType<typeof configsApi>
