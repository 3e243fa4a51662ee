// The Prometheus settings document (EMQX `prometheus`): GET answers the recommended shape; a PUT in
// the deprecated flat shape is converted first (emqx_prometheus_config:to_recommend_type/1). The
// push gateway's headers are one value: a PUT's headers replace the ones in force, so one can be removed.
import { isLegacyShape, PrometheusConfigSchema, toRecommendedShape } from '../../../contract/prometheus.ts'
import { mergeSettings, type Settings, type SettingsStore } from '../../http/settings-route.ts'
import type { PrometheusFeature } from './feature.ts'

function merge(current: unknown, body: Record<string, unknown>): unknown {
  const patch = isLegacyShape(body) ? toRecommendedShape(body) : body
  const merged = mergeSettings(current, patch) as Record<string, Record<string, unknown> | undefined>
  const headers = (patch.push_gateway as Record<string, unknown> | undefined)?.headers
  if (headers !== undefined && merged.push_gateway) merged.push_gateway = { ...merged.push_gateway, headers }
  return merged
}

export function prometheusSettings(feature: PrometheusFeature, store: SettingsStore): Settings<typeof PrometheusConfigSchema> {
  return { schema: PrometheusConfigSchema, current: () => feature.config, store, key: 'prometheus', apply: (config) => feature.configure(config), merge }
}
