// The log handlers (EMQX `/configs/log`): the console and the named files, read and changed whole
// (EMQX merges a change into the handlers in force).
import { LogSettingsSchema, type LogSettings } from '../../contract/log.ts'
import type { Http } from './http.ts'

export { type LogHandlerSettings, type LogSettings } from '../../contract/log.ts'

/** A change: the handlers' settings to change, by handler (`console`, `file.<name>`). */
export interface LogChange {
  console?: Record<string, unknown>
  file?: Record<string, Record<string, unknown>>
}

export function logApi(http: Http) {
  return {
    get(signal?: AbortSignal): Promise<LogSettings> {
      return http.get('configs/log', LogSettingsSchema, undefined, signal)
    },
    update(change: LogChange): Promise<LogSettings> {
      return http.send('put', 'configs/log', LogSettingsSchema, change)
    },
  }
}
