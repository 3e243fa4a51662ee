// The node's own config roots (`/configs/dashboard`, `/configs/limiter`): each read, and changed by
// a PUT that EMQX merges into the settings in force and answers with the result.
import type * as v from 'valibot'
import { DashboardConfigReadSchema, LimiterReadSchema } from '../../contract/configs.ts'
import type { Http } from './http.ts'

export type { DashboardConfig, LimiterConfig } from '../../contract/configs.ts'

/** `GET` and `PUT` of one root: only the keys given change; the server refuses (400) a kept one that differs. */
export function configRoot<T>(http: Http, path: string, schema: v.GenericSchema<unknown, T>) {
  return {
    get(signal?: AbortSignal): Promise<T> {
      return http.get(path, schema, undefined, signal)
    },
    update(changes: Partial<T>): Promise<T> {
      return http.send('put', path, schema, changes)
    },
  }
}

export function configsApi(http: Http) {
  return {
    dashboard: configRoot(http, 'configs/dashboard', DashboardConfigReadSchema),
    limiter: configRoot(http, 'configs/limiter', LimiterReadSchema),
  }
}

export type ConfigsApi = ReturnType<typeof configsApi>
