// Prometheus integration (EMQX `/prometheus`): the settings, in 5.8's recommended shape, and the
// address the scrape endpoints answer at.
import { PrometheusSettingsReadSchema, type PrometheusSettings, type PrometheusScrape } from '../../contract/prometheus.ts'
import type { Http } from './http.ts'

export { PrometheusSettingsReadSchema as prometheusSettingsSchema, type PrometheusSettings }

export function prometheusApi(http: Http) {
  return {
    get(signal?: AbortSignal): Promise<PrometheusSettings> {
      return http.get('prometheus', PrometheusSettingsReadSchema, undefined, signal)
    },
    /** Changes what is given (objects merge, as EMQX's config update does); answers the settings in force. */
    update(changes: Partial<PrometheusSettings>): Promise<PrometheusSettings> {
      return http.send('put', 'prometheus', PrometheusSettingsReadSchema, changes)
    },
  }
}

/** The path a Prometheus server scrapes, under the console's address. */
export function scrapePath(scrape: PrometheusScrape = 'stats'): string {
  return `/api/v5/prometheus/${scrape}`
}

export type PrometheusApi = ReturnType<typeof prometheusApi>
