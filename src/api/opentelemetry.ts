// OpenTelemetry integration (EMQX 5.8 EE `/opentelemetry`): the exporter and the metrics, logs and
// traces pipelines.
import { OtelSettingsReadSchema, type OtelSettings } from '../../contract/opentelemetry.ts'
import type { Http } from './http.ts'

export { OtelSettingsReadSchema as otelSettingsSchema, type OtelSettings }

export function opentelemetryApi(http: Http) {
  return {
    get(signal?: AbortSignal): Promise<OtelSettings> {
      return http.get('opentelemetry', OtelSettingsReadSchema, undefined, signal)
    },
    /** Changes what is given (objects merge); answers the settings in force. */
    update(changes: Partial<OtelSettings>): Promise<OtelSettings> {
      return http.send('put', 'opentelemetry', OtelSettingsReadSchema, changes)
    },
  }
}

export type OpentelemetryApi = ReturnType<typeof opentelemetryApi>
