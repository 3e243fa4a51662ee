// The OpenTelemetry settings document (EMQX `opentelemetry`): a PUT in the legacy shape (a top-level
// `enable`, `exporter.interval`) is converted first, as emqx_otel_schema's converter does; the
// exporter's headers are one value, replaced by a PUT that gives them.
import { fromLegacyShape, OtelConfigSchema } from '../../../contract/opentelemetry.ts'
import { mergeSettings, type Settings, type SettingsStore } from '../../http/settings-route.ts'
import type { OtelFeature } from './feature.ts'

function merge(current: unknown, body: Record<string, unknown>): unknown {
  const patch = fromLegacyShape(body)
  const merged = mergeSettings(current, patch) as Record<string, Record<string, unknown> | undefined>
  const headers = (patch.exporter as Record<string, unknown> | undefined)?.headers
  if (headers !== undefined && merged.exporter) merged.exporter = { ...merged.exporter, headers }
  return merged
}

export function otelSettings(feature: OtelFeature, store: SettingsStore): Settings<typeof OtelConfigSchema> {
  return { schema: OtelConfigSchema, current: () => feature.config, store, key: 'opentelemetry', apply: (config) => feature.configure(config), merge }
}
