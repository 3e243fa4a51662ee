// The webhook form's advanced HTTP settings, as EMQX's Webhook screen offers them: the connector's
// connection (timeout, pool, pipelining, TLS, start timeout) and the action's delivery (retries,
// resource options). Each is a text in the form, shown at its 5.8.9 default, and goes into the
// `connector` or `action` settings of the webhook commands.
import { isDuration, isSize } from '../../../commands/args.ts'
import { RESOURCE_OPTS_DEFAULTS, TYPE_DEFAULTS } from '../../../contract/connectors.ts'

type Part = 'connector' | 'action'
export type AdvancedKind = 'duration' | 'size' | 'integer' | 'enum' | 'boolean'

export interface AdvancedField {
  /** `connector.pool_size`, `action.resource_opts.request_ttl`: where it goes. */
  key: string
  part: Part
  path: readonly string[]
  kind: AdvancedKind
  options?: readonly string[]
  /** Integers: the least value. */
  min?: number
  /** Durations: words accepted too. */
  literals?: readonly string[]
  /** i18n key of the label. */
  label: string
  check(text: string): string | undefined
}

const http = TYPE_DEFAULTS.http
const connectorDefaults = http?.connector ?? {}

function field(part: Part, path: string[], kind: AdvancedKind, extra: Partial<Pick<AdvancedField, 'options' | 'min' | 'literals'>> = {}): AdvancedField {
  const key = `${part}.${path.join('.')}`
  const check = (text: string): string | undefined => {
    const value = text.trim()
    if (value === '') return 'err.required'
    if (kind === 'duration') return extra.literals?.includes(value) || isDuration(value) ? undefined : 'err.duration'
    if (kind === 'size') return isSize(value) || /^\d+$/.test(value) ? undefined : 'err.size'
    if (kind === 'integer') return /^\d+$/.test(value) && Number(value) >= (extra.min ?? 0) ? undefined : 'webhook.err.integer'
    return undefined
  }
  return { key, part, path, kind, label: `webhook.advanced.${path.at(-1)}`, check, ...extra }
}

export const ADVANCED_FIELDS: readonly AdvancedField[] = [
  field('connector', ['connect_timeout'], 'duration'),
  field('connector', ['pool_type'], 'enum', { options: ['random', 'hash'] }),
  field('connector', ['pool_size'], 'integer', { min: 1 }),
  field('connector', ['enable_pipelining'], 'integer', { min: 1 }),
  field('connector', ['ssl', 'enable'], 'boolean'),
  field('connector', ['resource_opts', 'start_timeout'], 'duration'),
  field('action', ['parameters', 'max_retries'], 'integer', { min: 0 }),
  field('action', ['resource_opts', 'query_mode'], 'enum', { options: ['async', 'sync'] }),
  field('action', ['resource_opts', 'request_ttl'], 'duration', { literals: ['infinity'] }),
  field('action', ['resource_opts', 'inflight_window'], 'integer', { min: 1 }),
  field('action', ['resource_opts', 'worker_pool_size'], 'integer', { min: 1 }),
  field('action', ['resource_opts', 'max_buffer_bytes'], 'size'),
  field('action', ['resource_opts', 'health_check_interval'], 'duration'),
]

/** Field key → the text in the form. */
export type AdvancedValues = Record<string, string>

const DEFAULTS: Record<Part, Record<string, unknown>> = {
  connector: { ...connectorDefaults, resource_opts: { start_timeout: RESOURCE_OPTS_DEFAULTS.start_timeout } },
  action: { parameters: { max_retries: 2 }, resource_opts: RESOURCE_OPTS_DEFAULTS },
}

function at(config: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = config
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
  return value
}

/** The form's texts from a saved connector and action (EMQX's defaults where they say nothing). */
export function advancedValues(connector: Record<string, unknown>, action: Record<string, unknown>): AdvancedValues {
  const config = { connector, action }
  return Object.fromEntries(
    ADVANCED_FIELDS.map((f) => {
      const value = at(config[f.part], f.path) ?? at(DEFAULTS[f.part], f.path)
      return [f.key, value === undefined ? '' : String(value)]
    }),
  )
}

function typed(f: AdvancedField, text: string): unknown {
  const value = text.trim()
  if (f.kind === 'integer') return Number(value)
  if (f.kind === 'boolean') return value === 'true'
  return value
}

/** The texts as the `connector` and `action` settings of the commands. */
export function advancedSettings(values: AdvancedValues): Record<Part, Record<string, unknown>> {
  const out: Record<Part, Record<string, unknown>> = { connector: {}, action: {} }
  for (const f of ADVANCED_FIELDS) {
    const text = values[f.key]
    if (text === undefined || text.trim() === '') continue
    let node = out[f.part]
    for (const key of f.path.slice(0, -1)) {
      const next = (node[key] ?? {}) as Record<string, unknown>
      node[key] = next
      node = next
    }
    node[f.path.at(-1) as string] = typed(f, text)
  }
  return out
}
