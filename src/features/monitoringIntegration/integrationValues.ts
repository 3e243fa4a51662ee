// The Prometheus and OpenTelemetry settings as the text values of their commands' forms.
import type { OtelSettings } from '../../api/opentelemetry.ts'
import type { PrometheusSettings } from '../../api/prometheus.ts'
import type { FormValues } from '../../ui/SchemaForm.tsx'

/** EMQX answers durations as written ('15s') or as milliseconds. */
const durationText = (value: string | number | undefined, fallback: string) => (value === undefined ? fallback : typeof value === 'number' ? `${value}ms` : value)
/** Key-value rows keep their order as a JSON list of pairs. */
const pairsText = (map: Record<string, string> | undefined) => JSON.stringify(Object.entries(map ?? {}))

export function prometheusValues(settings: PrometheusSettings): FormValues {
  return { enable_basic_auth: String(settings.enable_basic_auth ?? false) }
}

export function pushGatewayValues(settings: PrometheusSettings): FormValues {
  const push = settings.push_gateway ?? {}
  return {
    enable: String(push.enable ?? false),
    url: push.url ?? '',
    interval: durationText(push.interval, '15s'),
    job_name: push.job_name ?? '',
    headers: pairsText(push.headers),
  }
}

export function opentelemetryValues(settings: OtelSettings): FormValues {
  const e2e = settings.traces?.filter?.e2e_tracing_options
  return {
    endpoint: settings.exporter?.endpoint ?? '',
    tls: String(settings.exporter?.ssl_options?.enable ?? false),
    headers: pairsText(settings.exporter?.headers),
    metrics: String(settings.metrics?.enable ?? false),
    metrics_interval: durationText(settings.metrics?.interval, '10s'),
    logs: String(settings.logs?.enable ?? false),
    log_level: settings.logs?.level ?? 'warning',
    traces: String(settings.traces?.enable ?? false),
    trace_mode: settings.traces?.filter?.trace_mode ?? 'legacy',
    trace_all: String(settings.traces?.filter?.trace_all ?? false),
    client_connect_disconnect: String(e2e?.client_connect_disconnect ?? false),
    client_subscribe_unsubscribe: String(e2e?.client_subscribe_unsubscribe ?? false),
    client_messaging: String(e2e?.client_messaging ?? false),
    sample_ratio: typeof e2e?.sample_ratio === 'number' ? `${e2e.sample_ratio * 100}%` : (e2e?.sample_ratio ?? '10%'),
    follow_traceparent: String(e2e?.follow_traceparent ?? true),
  }
}

export function whitelistValues(lists: { clientids: readonly string[]; topics: readonly string[] }): FormValues {
  return { clientids: lists.clientids.join(', '), topics: lists.topics.join(', ') }
}
