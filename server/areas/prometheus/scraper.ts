// What the three scrape endpoints answer, in text or JSON, and what a push sends (every registry in
// text, node mode, as emqx_prometheus:push_metrics_data/0).
import type { PrometheusMode, PrometheusScrape } from '../../../contract/prometheus.ts'
import type { Broker } from '../../broker/broker.ts'
import { VmStats } from '../../metrics/vm-stats.ts'
import { authGroups, authJson, authText, type AuthSources } from './auth-families.ts'
import { dataIntegrationGroups, dataIntegrationJson, dataIntegrationText, noDataIntegration, type DataIntegration } from './data-integration-families.ts'
import { statsGroups, statsJson, statsText } from './stats-families.ts'

export class Scraper {
  private readonly broker: Broker
  private readonly auth: AuthSources
  private readonly vm = new VmStats()
  private readonly dataIntegration: DataIntegration

  constructor(broker: Broker, auth: Omit<AuthSources, 'node'>, dataIntegration: DataIntegration = noDataIntegration) {
    this.broker = broker
    this.auth = { ...auth, node: broker.node }
    this.dataIntegration = dataIntegration
  }

  async text(scrape: PrometheusScrape, mode: PrometheusMode): Promise<string> {
    switch (scrape) {
      case 'stats':
        return statsText(statsGroups(this.broker, this.vm, mode))
      case 'auth':
        return authText(await authGroups(this.auth, mode))
      case 'data_integration':
        return dataIntegrationText(dataIntegrationGroups(this.dataIntegration, this.broker.node, mode))
    }
  }

  async json(scrape: PrometheusScrape, mode: PrometheusMode): Promise<Record<string, unknown>> {
    switch (scrape) {
      case 'stats':
        return statsJson(statsGroups(this.broker, this.vm, mode), mode)
      case 'auth':
        return authJson(await authGroups(this.auth, mode))
      case 'data_integration':
        return dataIntegrationJson(dataIntegrationGroups(this.dataIntegration, this.broker.node, mode))
    }
  }

  /** Every registry in the text format, as a push sends it. */
  async all(): Promise<string> {
    const parts = await Promise.all((['stats', 'auth', 'data_integration'] as const).map((scrape) => this.text(scrape, 'node')))
    return parts.join('')
  }
}
