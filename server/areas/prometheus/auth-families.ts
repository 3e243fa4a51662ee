// GET /prometheus/auth: the families of emqx_prometheus_auth.erl (5.8.9): per authenticator (label
// `id`) and per authorization source (label `type`) its enable flag, status (1 connected, else 0)
// and counters; the built-in database's user and rule counts, the file source's rule count; the
// number of bans.
import type { PrometheusMode } from '../../../contract/prometheus.ts'
import type { AuthnFeature } from '../authn/feature.ts'
import type { AuthzFeature } from '../authz/feature.ts'
import { parseAclConf } from '../authz/acl-conf.ts'
import type { BannedFeature } from '../banned/feature.ts'
import { nodeLabel, toText, zipSamples, type Family, type Sample } from './exposition.ts'

export interface AuthSources {
  node: string
  authn: AuthnFeature
  authz: AuthzFeature
  banned: BannedFeature
}

export interface AuthGroups {
  authn: Family[]
  authnUsers: Family
  authz: Family[]
  authzRules: Family
  banned: Family
}

const AUTHN_COUNTERS = ['nomatch', 'total', 'success', 'failed'] as const
const AUTHZ_COUNTERS = ['nomatch', 'total', 'allow', 'deny'] as const
const asNumber = (flag: boolean) => (flag ? 1 : 0)

/** One family per name, its samples one per labelled row. */
function families(names: readonly string[], type: (name: string) => Family['type'], rows: ReadonlyArray<{ labels: Record<string, string>; values: Record<string, number> }>): Family[] {
  return names.map((name) => ({ name, type: type(name), samples: rows.map((row): Sample => ({ labels: row.labels, value: row.values[name] })) }))
}

const gaugeWhen = (gauges: readonly string[]) => (name: string): Family['type'] => (gauges.includes(name) ? 'gauge' : 'counter')

export async function authGroups(sources: AuthSources, mode: PrometheusMode): Promise<AuthGroups> {
  const node = nodeLabel(mode, sources.node)
  const authenticators = sources.authn.list()
  const authnRows = await Promise.all(
    authenticators.map(async (entry) => {
      const health = entry.provider.status ? await entry.provider.status() : { status: 'connected' }
      const counters = entry.counters
      const values: Record<string, number> = { emqx_authn_enable: asNumber(entry.config.enable !== false), emqx_authn_status: asNumber(health.status === 'connected') }
      for (const key of AUTHN_COUNTERS) values[`emqx_authn_${key}`] = counters[key]
      return { labels: { ...node, id: entry.id }, values }
    }),
  )
  const authzRows = sources.authz.list().map((config) => {
    const status = sources.authz.status(config.type, sources.node)
    const values: Record<string, number> = { emqx_authz_enable: asNumber(config.enable), emqx_authz_status: asNumber(status.status === 'connected') }
    for (const key of AUTHZ_COUNTERS) values[`emqx_authz_${key}`] = status.metrics[key]
    return { labels: { ...node, type: config.type }, values }
  })
  const users = authenticators
    .filter((entry) => 'backend' in entry.config && entry.config.backend === 'built_in_database')
    .map((entry): Sample => ({ labels: { id: entry.id }, value: sources.authn.repository.listUsers(entry.id).length }))
  const rules = sources.authz.list().flatMap((config): Sample[] => {
    if (config.type === 'built_in_database') return [{ labels: { type: config.type }, value: sources.authz.rules.size }]
    if (config.type === 'file') return [{ labels: { type: config.type }, value: parseAclConf(config.rules ?? '').length }]
    return []
  })
  const authnNames = ['emqx_authn_enable', 'emqx_authn_status', ...AUTHN_COUNTERS.map((key) => `emqx_authn_${key}`)]
  const authzNames = ['emqx_authz_enable', 'emqx_authz_status', ...AUTHZ_COUNTERS.map((key) => `emqx_authz_${key}`)]
  return {
    authn: families(authnNames, gaugeWhen(['emqx_authn_enable', 'emqx_authn_status']), authnRows),
    authnUsers: { name: 'emqx_authn_users_count', type: 'gauge', samples: users },
    authz: families(authzNames, gaugeWhen(['emqx_authz_enable', 'emqx_authz_status']), authzRows),
    authzRules: { name: 'emqx_authz_rules_count', type: 'gauge', samples: rules },
    banned: { name: 'emqx_banned_count', type: 'gauge', samples: [{ labels: {}, value: sources.banned.repository.list().length }] },
  }
}

export function authText(groups: AuthGroups): string {
  return toText([...groups.authn, groups.authnUsers, ...groups.authz, groups.authzRules, groups.banned])
}

/** emqx_prometheus_auth:collect(<<"json">>): a row per authenticator and per source, with its user or rule count. */
export function authJson(groups: AuthGroups): Record<string, unknown> {
  const countOf = (family: Family, key: string, value: string) => family.samples.find((sample) => sample.labels[key] === value)?.value
  const withCount = (rows: Array<Record<string, string | number>>, family: Family, key: string) =>
    rows.map((row) => {
      const count = countOf(family, key, String(row[key]))
      return count === undefined ? row : { ...row, [family.name]: count }
    })
  return {
    emqx_authn: withCount(zipSamples(groups.authn), groups.authnUsers, 'id'),
    emqx_authz: withCount(zipSamples(groups.authz), groups.authzRules, 'type'),
    emqx_banned: { emqx_banned_count: groups.banned.samples[0].value },
  }
}
