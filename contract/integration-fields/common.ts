// Fields every type shares: the description, the client TLS group and the resource options of
// connectors, actions and sources (SPEC 3; EMQX 5.8.9's emqx_resource_schema and emqx_schema's
// client_ssl_opts_schema). Their defaults come from contract/connectors.ts.
import { RESOURCE_OPTS_DEFAULTS } from '../connectors.ts'
import { when, type IntegrationField } from './field.ts'

export const DESCRIPTION: IntegrationField = { path: 'description', kind: 'string', default: '' }

/** The `ssl` group of a connector, as one field the form expands (expandTls). */
export const TLS: IntegrationField = { path: 'ssl', kind: 'tls', default: { enable: false } }

const tlsOn = when('ssl.enable', true)

/** The client TLS fields, relative to the group's path. EMQX's client default is verify_none. */
const TLS_OWN: IntegrationField[] = [
  { path: 'enable', kind: 'boolean', default: false, label: 'integrationFields.tls.enable' },
  { path: 'verify', kind: 'enum', options: ['verify_peer', 'verify_none'], default: 'verify_none', label: 'integrationFields.tls.verify' },
  { path: 'server_name_indication', kind: 'string', label: 'integrationFields.tls.server_name_indication', help: 'integrationFields.help.sni' },
  { path: 'cacertfile', kind: 'string', multiline: true, label: 'integrationFields.tls.cacertfile', help: 'integrationFields.help.pem' },
  { path: 'certfile', kind: 'string', multiline: true, label: 'integrationFields.tls.certfile', help: 'integrationFields.help.pem' },
  { path: 'keyfile', kind: 'string', multiline: true, label: 'integrationFields.tls.keyfile', help: 'integrationFields.help.pem' },
  { path: 'password', kind: 'secret', label: 'integrationFields.tls.password', advanced: true },
  { path: 'versions', kind: 'strings', default: ['tlsv1.3', 'tlsv1.2'], label: 'integrationFields.tls.versions', advanced: true },
  { path: 'ciphers', kind: 'strings', label: 'integrationFields.tls.ciphers', advanced: true },
  { path: 'depth', kind: 'number', default: 10, min: 0, label: 'integrationFields.tls.depth', advanced: true },
]
export const TLS_FIELDS: readonly IntegrationField[] = TLS_OWN.map((field) => (field.path === 'enable' ? field : { ...field, when: tlsOn }))

/** The TLS group's fields at `ssl.<field>` (or under the group's own path). */
export function expandTls(fields: readonly IntegrationField[]): IntegrationField[] {
  return fields.flatMap((field) => {
    if (field.kind !== 'tls') return [field]
    return TLS_FIELDS.map((inner) => ({
      ...inner,
      path: `${field.path}.${inner.path}`,
      when: inner.when ? { ...inner.when, path: `${field.path}.enable` } : undefined,
    }))
  })
}

const resource = (name: keyof typeof RESOURCE_OPTS_DEFAULTS, rest: Omit<IntegrationField, 'path' | 'default'>): IntegrationField => ({
  path: `resource_opts.${name}`,
  default: RESOURCE_OPTS_DEFAULTS[name],
  label: `integrationFields.resource.${name}`,
  advanced: true,
  ...rest,
})

export const CONNECTOR_RESOURCE_OPTS: readonly IntegrationField[] = [
  resource('health_check_interval', { kind: 'duration' }),
  resource('start_after_created', { kind: 'boolean' }),
  resource('start_timeout', { kind: 'duration' }),
]

/** An action's options; batch_size and batch_time only for the types that batch (not UNBATCHED_ACTION_TYPES: http, mqtt, mongodb). */
export function actionResourceOpts(batching: boolean): IntegrationField[] {
  return [
    resource('health_check_interval', { kind: 'duration' }),
    resource('worker_pool_size', { kind: 'number', min: 1, max: 1024 }),
    resource('query_mode', { kind: 'enum', options: ['sync', 'async'] }),
    resource('request_ttl', { kind: 'duration', literals: ['infinity'] }),
    resource('inflight_window', { kind: 'number', min: 1 }),
    ...(batching ? [resource('batch_size', { kind: 'number', min: 1 }), resource('batch_time', { kind: 'duration' })] : []),
    resource('max_buffer_bytes', { kind: 'bytesize' }),
  ]
}

export const SOURCE_RESOURCE_OPTS: readonly IntegrationField[] = [resource('health_check_interval', { kind: 'duration' })]

/** `local_topic`: messages published to it go to the action without a rule (producer actions; EMQX's console hides it for http). */
export const LOCAL_TOPIC: IntegrationField = { path: 'local_topic', kind: 'string', advanced: true, help: 'integrationFields.help.localTopic' }
