// Prometheus integration (EMQX 5.8 emqx_prometheus_api, emqx_prometheus_schema), written once for the
// server and the browser: the settings in EMQX's recommended shape (push gateway, collectors, basic
// auth on the scrape endpoints), the legacy flat shape a PUT still accepts, the scrape modes, and
// the errors.
import * as v from 'valibot'
import { keptAt } from './mqtt-configs.ts'
import { parseDuration } from './units.ts'

/** `mode` of the scrape endpoints; anything else silently means `node`, as EMQX answers. */
export const PROMETHEUS_MODES = ['node', 'all_nodes_aggregated', 'all_nodes_unaggregated'] as const
export type PrometheusMode = (typeof PROMETHEUS_MODES)[number]

/** The three scrape endpoints of EMQX 5.8 CE, under /api/v5/prometheus/. */
export const PROMETHEUS_SCRAPES = ['stats', 'auth', 'data_integration'] as const
export type PrometheusScrape = (typeof PROMETHEUS_SCRAPES)[number]

/** EMQX's default job name: the node's name part, `/instance/`, name and host (`emqx/instance/emqx~127.0.0.1`). */
export const DEFAULT_JOB_NAME = '${name}/instance/${name}~${host}'

/** emqx_prometheus_schema:validate_url/1: an http or https URL. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/** The shortest push interval accepted: a push per second is already far more than a gateway needs. */
export const MIN_PUSH_INTERVAL_MS = 1000

const pushInterval = v.union(
  [
    v.pipe(
      v.string(),
      v.check((text) => (parseDuration(text) ?? -1) >= MIN_PUSH_INTERVAL_MS, 'must be a duration of at least 1s, such as 15s or 1m'),
    ),
    v.pipe(v.number(), v.integer(), v.minValue(MIN_PUSH_INTERVAL_MS, 'must be at least 1000 (milliseconds)')),
  ],
  'must be a duration of at least 1s, such as 15s or 1m',
)

/** A checked interval (a duration string or milliseconds) in milliseconds. */
export function intervalMs(value: string | number): number {
  return typeof value === 'number' ? value : (parseDuration(value) ?? 15_000)
}

// The collectors add Erlang VM families, which a Node server has not: kept at 5.8's default, refused when changed.
const collector = keptAt('disabled')

export const PushGatewaySchema = v.object({
  enable: v.optional(v.boolean('must be true or false'), false),
  method: v.optional(v.picklist(['put', 'post'], 'must be put or post'), 'put'),
  url: v.optional(v.pipe(v.string('must be a string'), v.check(isHttpUrl, 'Invalid url')), 'http://127.0.0.1:9091'),
  interval: v.optional(pushInterval, '15s'),
  headers: v.optional(v.record(v.string(), v.string('header values must be strings')), {}),
  job_name: v.optional(v.string('must be a string'), DEFAULT_JOB_NAME),
})

/** The settings (recommended shape) as this server checks them after a PUT's merge and answers them. */
export const PrometheusConfigSchema = v.object({
  enable_basic_auth: v.optional(v.boolean('must be true or false'), false),
  push_gateway: v.optional(PushGatewaySchema, {}),
  collectors: v.optional(
    v.object({ vm_dist: collector, mnesia: collector, vm_statistics: collector, vm_system_info: collector, vm_memory: collector, vm_msacc: collector }),
    {},
  ),
})
export type PrometheusConfig = v.InferOutput<typeof PrometheusConfigSchema>

/** The deprecated flat shape's keys and where they go (emqx_prometheus_config:to_recommend_type/1). */
export const LEGACY_COLLECTORS = {
  vm_dist_collector: 'vm_dist',
  mnesia_collector: 'mnesia',
  vm_statistics_collector: 'vm_statistics',
  vm_system_info_collector: 'vm_system_info',
  vm_memory_collector: 'vm_memory',
  vm_msacc_collector: 'vm_msacc',
} as const
const RECOMMENDED_KEYS = Object.keys(PrometheusConfigSchema.entries)

/** A body is in the legacy shape when it has a key the recommended shape lacks (is_recommend_type/1). */
export function isLegacyShape(body: Record<string, unknown>): boolean {
  return Object.keys(body).some((key) => !RECOMMENDED_KEYS.includes(key))
}

/** The legacy flat shape as the recommended one (basic auth off, as EMQX converts it). */
export function toRecommendedShape(legacy: Record<string, unknown>): Record<string, unknown> {
  const push: Record<string, unknown> = {}
  for (const key of ['interval', 'headers', 'job_name', 'enable']) if (key in legacy) push[key] = legacy[key]
  const server = legacy.push_gateway_server
  if (server === undefined || server === '') push.enable = false
  else push.url = server
  const collectors: Record<string, unknown> = {}
  for (const [from, to] of Object.entries(LEGACY_COLLECTORS)) if (from in legacy) collectors[to] = legacy[from]
  return { push_gateway: push, collectors, enable_basic_auth: false }
}

/** The settings as the browser reads them from any EMQX 5.8 (loose: versions add fields). */
export const PrometheusSettingsReadSchema = v.looseObject({
  enable_basic_auth: v.optional(v.boolean()),
  push_gateway: v.optional(
    v.looseObject({
      enable: v.optional(v.boolean()),
      method: v.optional(v.string()),
      url: v.optional(v.string()),
      interval: v.optional(v.union([v.string(), v.number()])),
      headers: v.optional(v.record(v.string(), v.string())),
      job_name: v.optional(v.string()),
    }),
  ),
  collectors: v.optional(v.record(v.string(), v.string())),
})
export type PrometheusSettings = v.InferOutput<typeof PrometheusSettingsReadSchema>

/** The errors of this area: status and EMQX code. */
export const prometheusErrors = {
  /** 400: a value the schema refuses (a URL that is not http(s), an interval that is not a duration); nothing changes. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 401 on a scrape endpoint while `enable_basic_auth` is true and no API key or token came. */
  unauthorized: { status: 401, code: 'BAD_TOKEN' },
} as const
