// The actions and connectors of this node as the Prometheus data integration families read them
// (server/areas/prometheus/data-integration-families.ts): id, enable, status, and an action's metrics.
import { resourceId } from '../../../contract/connectors.ts'
import type { ActionFigures, ConnectorFigures } from '../prometheus/data-integration-families.ts'
import type { IntegrationFeature } from './feature.ts'

export function integrationFigures(feature: IntegrationFeature): { actions(): ActionFigures[]; connectors(): ConnectorFigures[] } {
  return {
    actions: () =>
      feature.repository.list('actions').map((stored) => {
        const info = feature.bridgeInfo('actions', stored)
        return { id: resourceId(stored.type, stored.name), enable: info.enable, status: info.status, metrics: { ...feature.metrics('actions', stored).metrics, ...feature.retriedCounts(stored) } }
      }),
    connectors: () =>
      feature.repository.list('connectors').map((stored) => {
        const info = feature.connectorInfo(stored)
        return { id: resourceId(stored.type, stored.name), enable: info.enable, status: info.status }
      }),
  }
}
