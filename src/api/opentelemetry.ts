// OpenTelemetry integration (EMQX 5.8 EE `/opentelemetry`): the exporter and the metrics, logs and
// traces pipelines, and e2e tracing's whitelists.
import * as v from 'valibot'
import { OtelSettingsReadSchema, type OtelSettings, type OtelWhitelistType } from '../../contract/opentelemetry.ts'
import type { Http } from './http.ts'

export { OtelSettingsReadSchema as otelSettingsSchema, type OtelSettings }

const whitelistSchema = v.array(v.string())

export function opentelemetryApi(http: Http) {
  return {
    get(signal?: AbortSignal): Promise<OtelSettings> {
      return http.get('opentelemetry', OtelSettingsReadSchema, undefined, signal)
    },
    /** Changes what is given (objects merge); answers the settings in force. */
    update(changes: Partial<OtelSettings>): Promise<OtelSettings> {
      return http.send('put', 'opentelemetry', OtelSettingsReadSchema, changes)
    },
    /** The e2e tracing whitelist of client ids or topic filters. */
    whitelist(type: OtelWhitelistType, signal?: AbortSignal): Promise<string[]> {
      return http.get(`opentelemetry/whitelist/${type}`, whitelistSchema, undefined, signal)
    },
    /** Replaces a whitelist; an empty list purges it. */
    setWhitelist(type: OtelWhitelistType, entries: readonly string[]): Promise<void> {
      return entries.length === 0 ? http.send('delete', `opentelemetry/whitelist/${type}`, null) : http.send('post', `opentelemetry/whitelist/${type}`, null, entries)
    },
  }
}

export type OpentelemetryApi = ReturnType<typeof opentelemetryApi>
