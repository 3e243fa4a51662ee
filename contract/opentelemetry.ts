// OpenTelemetry integration (EMQX 5.8 EE emqx_otel_api, emqx_otel_schema), written once for the
// server and the browser: the settings (exporter, metrics, logs, traces with their filter), the
// legacy shape a PUT still accepts, and the errors.
import * as v from 'valibot'
import { isHttpUrl } from './prometheus.ts'
import { parseDuration } from './units.ts'

/** EMQX's log levels (emqx_conf_schema:log_level/0), most verbose first. */
export const OTEL_LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency', 'all'] as const
export type OtelLogLevel = (typeof OTEL_LOG_LEVELS)[number]

export const OTEL_TRACE_MODES = ['legacy', 'e2e'] as const

/** A positive duration as EMQX's timeout_duration_ms takes it: "10s", "500ms", or milliseconds. */
const durationMs = v.union(
  [
    v.pipe(
      v.string(),
      v.check((text) => (parseDuration(text) ?? 0) > 0, 'must be a positive duration such as 500ms, 10s or 1m'),
    ),
    v.pipe(v.number(), v.integer(), v.minValue(1, 'must be a positive number of milliseconds')),
  ],
  'must be a positive duration such as 500ms, 10s or 1m',
)

/** A checked duration in milliseconds. */
export function otelDurationMs(value: string | number): number {
  return typeof value === 'number' ? value : (parseDuration(value) ?? 0)
}

const positiveInteger = v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'))
const boolean = v.boolean('must be true or false')

/** "10%" or 0.1 -> 0.1; EMQX's percent type, between 0 and 1 (validate_sample_ratio/1). */
export function sampleRatio(value: string | number): number {
  return typeof value === 'number' ? value : Number(value.replace(/%$/, '')) / (value.endsWith('%') ? 100 : 1)
}

export const OtelSslSchema = v.object({
  enable: v.optional(boolean, false),
  verify: v.optional(v.picklist(['verify_peer', 'verify_none'], 'must be verify_peer or verify_none'), 'verify_peer'),
  server_name_indication: v.optional(v.string()),
  /** A file path or the PEM text itself, as EMQX's file-or-content fields. */
  cacertfile: v.optional(v.string()),
  certfile: v.optional(v.string()),
  keyfile: v.optional(v.string()),
})

/** The settings as this server checks a PUT (after its merge) and answers them. */
export const OtelConfigSchema = v.object({
  exporter: v.optional(
    v.object({
      endpoint: v.optional(v.pipe(v.string('must be a string'), v.check(isHttpUrl, 'must be an http or https URL')), 'http://localhost:4317'),
      protocol: v.optional(v.picklist(['grpc'], 'must be grpc'), 'grpc'),
      headers: v.optional(v.record(v.string(), v.string('header values must be strings')), {}),
      ssl_options: v.optional(OtelSslSchema, {}),
    }),
    {},
  ),
  metrics: v.optional(v.object({ enable: v.optional(boolean, false), interval: v.optional(durationMs, '10s') }), {}),
  logs: v.optional(
    v.object({
      level: v.optional(v.picklist(OTEL_LOG_LEVELS, `must be one of ${OTEL_LOG_LEVELS.join(', ')}`), 'warning'),
      enable: v.optional(boolean, false),
      max_queue_size: v.optional(positiveInteger, 2048),
      exporting_timeout: v.optional(durationMs, '30s'),
      scheduled_delay: v.optional(durationMs, '1s'),
    }),
    {},
  ),
  traces: v.optional(
    v.object({
      enable: v.optional(boolean, false),
      max_queue_size: v.optional(positiveInteger, 2048),
      exporting_timeout: v.optional(durationMs, '30s'),
      scheduled_delay: v.optional(durationMs, '5s'),
      filter: v.optional(
        v.object({
          trace_mode: v.optional(v.picklist(OTEL_TRACE_MODES, 'must be legacy or e2e'), 'legacy'),
          trace_all: v.optional(boolean, false),
          e2e_tracing_options: v.optional(
            v.object({
              cluster_identifier: v.optional(v.string(), 'emqxcl'),
              msg_trace_level: v.optional(v.picklist([0, 1, 2], 'must be 0, 1 or 2'), 0),
              clientid_match_rules_max: v.optional(positiveInteger, 30),
              topic_match_rules_max: v.optional(positiveInteger, 30),
              sample_ratio: v.optional(
                v.pipe(
                  v.union([v.pipe(v.string(), v.regex(/^\d+(\.\d+)?%?$/, 'must be a percentage such as 10%')), v.number()], 'must be a percentage such as 10%'),
                  v.check((value) => sampleRatio(value) >= 0 && sampleRatio(value) <= 1, 'The sample_ratio is a value between 0 and 1.'),
                ),
                '10%',
              ),
              client_connect_disconnect: v.optional(boolean, false),
              client_subscribe_unsubscribe: v.optional(boolean, false),
              client_messaging: v.optional(boolean, false),
              follow_traceparent: v.optional(boolean, true),
            }),
            {},
          ),
        }),
        {},
      ),
    }),
    {},
  ),
})
export type OtelConfig = v.InferOutput<typeof OtelConfigSchema>

/** emqx_otel_schema's legacy_metrics_converter/2: a top-level `enable` and `exporter.interval` belong to metrics. */
export function fromLegacyShape(body: Record<string, unknown>): Record<string, unknown> {
  const { enable, ...rest } = body
  const out: Record<string, unknown> = { ...rest }
  const metrics: Record<string, unknown> = { ...((rest.metrics as Record<string, unknown> | undefined) ?? {}) }
  if (enable !== undefined) metrics.enable = enable
  const exporter = rest.exporter as Record<string, unknown> | undefined
  if (exporter && 'interval' in exporter) {
    const { interval, ...others } = exporter
    metrics.interval = interval
    out.exporter = others
  }
  if (Object.keys(metrics).length > 0) out.metrics = metrics
  return out
}

/** The settings as the browser reads them from EMQX 5.8 EE (loose). */
export const OtelSettingsReadSchema = v.looseObject({
  exporter: v.optional(
    v.looseObject({
      endpoint: v.optional(v.string()),
      protocol: v.optional(v.string()),
      headers: v.optional(v.record(v.string(), v.string())),
      ssl_options: v.optional(v.looseObject({ enable: v.optional(v.boolean()) })),
    }),
  ),
  metrics: v.optional(v.looseObject({ enable: v.optional(v.boolean()), interval: v.optional(v.union([v.string(), v.number()])) })),
  logs: v.optional(
    v.looseObject({
      enable: v.optional(v.boolean()),
      level: v.optional(v.string()),
      max_queue_size: v.optional(v.number()),
      exporting_timeout: v.optional(v.union([v.string(), v.number()])),
      scheduled_delay: v.optional(v.union([v.string(), v.number()])),
    }),
  ),
  traces: v.optional(
    v.looseObject({
      enable: v.optional(v.boolean()),
      max_queue_size: v.optional(v.number()),
      exporting_timeout: v.optional(v.union([v.string(), v.number()])),
      scheduled_delay: v.optional(v.union([v.string(), v.number()])),
      filter: v.optional(
        v.looseObject({
          trace_mode: v.optional(v.string()),
          trace_all: v.optional(v.boolean()),
          e2e_tracing_options: v.optional(
            v.looseObject({
              sample_ratio: v.optional(v.union([v.string(), v.number()])),
              client_connect_disconnect: v.optional(v.boolean()),
              client_subscribe_unsubscribe: v.optional(v.boolean()),
              client_messaging: v.optional(v.boolean()),
              follow_traceparent: v.optional(v.boolean()),
            }),
          ),
        }),
      ),
    }),
  ),
})
export type OtelSettings = v.InferOutput<typeof OtelSettingsReadSchema>

/** The e2e tracing whitelists (`/opentelemetry/whitelist/{type}`): client ids, and topic filters. */
export const OTEL_WHITELIST_TYPES = ['clientid', 'topic'] as const
export type OtelWhitelistType = (typeof OTEL_WHITELIST_TYPES)[number]
/** POST's body: the whole list, replacing the one in force. */
export const OtelWhitelistSchema = v.array(v.string('entries must be strings'), 'must be a list of strings')

/** The errors of this area: status and EMQX code. */
export const otelErrors = {
  /** 400: a value the schema refuses, or a whitelist longer than its `*_match_rules_max`; nothing changes. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
} as const

/** emqx_otel_sampler_api's words for a whitelist over its limit. */
export const tooManyRules = (type: OtelWhitelistType) => `The number of '${type}' exceeds the white list maximum limit.`
