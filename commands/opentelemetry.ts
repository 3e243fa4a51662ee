// OpenTelemetry integration: where to export (OTLP/gRPC) and which of metrics, logs and traces.
import * as v from 'valibot'
import { isHttpUrl } from '../contract/prometheus.ts'
import { OTEL_LOG_LEVELS, OTEL_TRACE_MODES } from '../contract/opentelemetry.ts'
import { defineCommand } from './define.ts'
import { durationArg, givenArgs, keepsCurrent, keyValuesArg } from './args.ts'

const flag = (title: string, description?: string) =>
  keepsCurrent(description ? v.pipe(v.boolean('err.boolean'), v.title(title), v.description(description)) : v.pipe(v.boolean('err.boolean'), v.title(title)))

/** The object of the given fields only, or undefined when none is. */
function given(fields: Record<string, unknown>): Record<string, unknown> | undefined {
  const present = givenArgs(fields)
  return Object.keys(present).length > 0 ? present : undefined
}

export const updateOpentelemetry = defineCommand({
  id: 'opentelemetry.update',
  title: 'cmd.opentelemetry.update',
  group: 'cmdGroup.monitoringIntegration',
  changes: ['opentelemetry'],
  args: v.object({
    endpoint: keepsCurrent(v.pipe(v.string(), v.title('form.field.otelEndpoint'), v.description('form.hint.otelEndpoint'), v.nonEmpty('err.required'), v.check(isHttpUrl, 'err.httpUrl'))),
    tls: flag('form.field.otelTls', 'form.hint.otelTls'),
    headers: v.optional(keyValuesArg('form.field.otelHeaders')),
    metrics: flag('form.field.otelMetrics'),
    metrics_interval: keepsCurrent(durationArg('form.field.otelMetricsInterval', { description: 'form.hint.otelMetricsInterval' })),
    logs: flag('form.field.otelLogs', 'form.hint.otelLogs'),
    log_level: keepsCurrent(v.pipe(v.picklist(OTEL_LOG_LEVELS, 'err.oneOf'), v.title('form.field.otelLogLevel'))),
    traces: flag('form.field.otelTraces'),
    trace_mode: keepsCurrent(v.pipe(v.picklist(OTEL_TRACE_MODES, 'err.oneOf'), v.title('form.field.otelTraceMode'), v.description('form.hint.otelTraceMode'))),
    trace_all: flag('form.field.otelTraceAll', 'form.hint.otelTraceAll'),
  }),
  aliases: ['opentelemetry', 'otel', 'OTLP', '可观测性'],
  run: (ctx, args) => {
    const exporter = given({ endpoint: args.endpoint, headers: args.headers, ssl_options: given({ enable: args.tls }) })
    const filter = given({ trace_mode: args.trace_mode, trace_all: args.trace_all })
    const changes = given({
      exporter,
      metrics: given({ enable: args.metrics, interval: args.metrics_interval }),
      logs: given({ enable: args.logs, level: args.log_level }),
      traces: given({ enable: args.traces, filter }),
    })
    return ctx.api.opentelemetry.update(changes ?? {})
  },
})

export const opentelemetryCommands = [updateOpentelemetry]
