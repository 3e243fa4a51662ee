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
    client_connect_disconnect: flag('form.field.otelE2eConnect'),
    client_subscribe_unsubscribe: flag('form.field.otelE2eSubscribe'),
    client_messaging: flag('form.field.otelE2eMessaging'),
    sample_ratio: keepsCurrent(
      v.pipe(
        v.string(),
        v.title('form.field.otelSampleRatio'),
        v.description('form.hint.otelSampleRatio'),
        v.check((text: string) => /^\d+(\.\d+)?%$/.test(text) && Number(text.slice(0, -1)) <= 100, 'err.percent'),
      ),
    ),
    follow_traceparent: flag('form.field.otelFollowTraceparent', 'form.hint.otelFollowTraceparent'),
  }),
  aliases: ['opentelemetry', 'otel', 'OTLP', '可观测性'],
  run: (ctx, args) => {
    const exporter = given({ endpoint: args.endpoint, headers: args.headers, ssl_options: given({ enable: args.tls }) })
    const e2e = given({
      client_connect_disconnect: args.client_connect_disconnect,
      client_subscribe_unsubscribe: args.client_subscribe_unsubscribe,
      client_messaging: args.client_messaging,
      sample_ratio: args.sample_ratio,
      follow_traceparent: args.follow_traceparent,
    })
    const filter = given({ trace_mode: args.trace_mode, trace_all: args.trace_all, e2e_tracing_options: e2e })
    const changes = given({
      exporter,
      metrics: given({ enable: args.metrics, interval: args.metrics_interval }),
      logs: given({ enable: args.logs, level: args.log_level }),
      traces: given({ enable: args.traces, filter }),
    })
    return ctx.api.opentelemetry.update(changes ?? {})
  },
})

/** A list as typed: entries separated by commas or new lines. */
export function splitList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
}

export const setOtelWhitelist = defineCommand({
  id: 'opentelemetry.whitelist',
  title: 'cmd.opentelemetry.whitelist',
  group: 'cmdGroup.monitoringIntegration',
  changes: ['opentelemetry'],
  // Both lists, each replacing the one in force: an empty one clears it.
  args: v.object({
    clientids: v.pipe(v.string(), v.title('form.field.otelWhitelistClientids'), v.description('form.hint.otelWhitelistClientids')),
    topics: v.pipe(v.string(), v.title('form.field.otelWhitelistTopics'), v.description('form.hint.otelWhitelistTopics')),
  }),
  aliases: ['trace whitelist', 'e2e tracing', '追踪白名单'],
  run: async (ctx, args) => {
    await ctx.api.opentelemetry.setWhitelist('clientid', splitList(args.clientids))
    await ctx.api.opentelemetry.setWhitelist('topic', splitList(args.topics))
    const [clientids, topics] = await Promise.all([ctx.api.opentelemetry.whitelist('clientid'), ctx.api.opentelemetry.whitelist('topic')])
    return { clientids, topics }
  },
})

export const opentelemetryCommands = [updateOpentelemetry, setOtelWhitelist]
