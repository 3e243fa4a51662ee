// Telemetry (`/telemetry/status`, `/telemetry/data`): whether the node reports usage, and the report.
import { telemetryDataSchema, telemetryStatusSchema, type TelemetryData, type TelemetryStatus } from '../../contract/telemetry.ts'
import type { Http } from './http.ts'

export type { TelemetryData, TelemetryStatus } from '../../contract/telemetry.ts'

export function telemetryApi(http: Http) {
  return {
    status(signal?: AbortSignal): Promise<TelemetryStatus> {
      return http.get('telemetry/status', telemetryStatusSchema, undefined, signal)
    },
    /** EMQX answers 400 when the status is already the one asked for (the embedded server never turns it on). */
    setStatus(enable: boolean): Promise<void> {
      return http.send('put', 'telemetry/status', null, { enable })
    },
    /** The report; EMQX answers 404 while telemetry is off. */
    data(signal?: AbortSignal): Promise<TelemetryData> {
      return http.get('telemetry/data', telemetryDataSchema, undefined, signal)
    },
  }
}

export type TelemetryApi = ReturnType<typeof telemetryApi>
