// The Kafka connectors' config (emqx_bridge_kafka:kafka_connector_config_fields, 5.8.9), shared by
// `kafka_producer` and `kafka_consumer`: bootstrap hosts, timeouts, SASL, TLS and socket options,
// checked with a reason for each refusal and settled into what kafkajs is opened with.
import { connect as netConnect, isIP, type Socket } from 'node:net'
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls'
import type { ISocketFactory, SASLOptions } from 'kafkajs'
import { KAFKA_CONNECTOR_DEFAULTS } from '../../../contract/connectors.ts'
import { parseServer } from '../../backends/resource.ts'
import { clientTlsOptions, parseClientSsl } from './client-tls.ts'
import { bool, byteSize, durationMs, isObject, oneOf, optionalText, requiredText } from './config-fields.ts'

export const KAFKA_DEFAULT_PORT = 9092

const SASL_MECHANISMS = ['plain', 'scram_sha_256', 'scram_sha_512'] as const
const KAFKAJS_MECHANISM = { plain: 'plain', scram_sha_256: 'scram-sha-256', scram_sha_512: 'scram-sha-512' } as const

/** Node gives a TCP socket no send or receive buffer size of its own: only EMQX's default is taken. */
const DEFAULT_SOCKET_BUFFER = 1024 * 1024

export interface KafkaConnectorSettings {
  brokers: string[]
  connectTimeoutMs: number
  /** metadata_request_timeout: how long any request to a broker may take. */
  requestTimeoutMs: number
  minMetadataRefreshMs: number
  sasl: SASLOptions | undefined
  /** Undefined: plain TCP. */
  tls: ConnectionOptions | undefined
  /** `auto`: each broker's own host name is sent as SNI (a name, not an address). */
  sniAuto: boolean
  nodelay: boolean
  /** tcp_keepalive's idle seconds in ms; undefined when `none`. */
  keepaliveIdleMs: number | undefined
  /** health_check_topic: a topic whose metadata the health check reads instead of the cluster's. */
  healthCheckTopic: string | undefined
}

/** `host[:port],...` (emqx_schema servers_validator with Kafka's default port). */
export function bootstrapHosts(value: unknown): string[] {
  const text = requiredText('bootstrap_hosts', value)
  const hosts = text
    .split(',')
    .map((host) => host.trim())
    .filter(Boolean)
    .map((host) => {
      const { host: name, port } = parseServer(host.replace(/^[a-z]+:\/\//i, ''), KAFKA_DEFAULT_PORT)
      return `${name.includes(':') ? `[${name}]` : name}:${port}`
    })
  if (hosts.length === 0) throw new Error('bootstrap_hosts: cannot_be_empty')
  return hosts
}

function authentication(value: unknown): SASLOptions | undefined {
  if (value === undefined || value === 'none') return undefined
  if (!isObject(value)) throw new Error('authentication: must be none or an object with mechanism, username and password')
  if ('kerberos_principal' in value || 'kerberos_keytab_file' in value) {
    throw new Error('authentication: GSSAPI (Kerberos) is not supported by this server: its Kafka client (kafkajs) has no Kerberos mechanism; use plain or SCRAM')
  }
  const mechanism = oneOf('authentication.mechanism', value.mechanism, SASL_MECHANISMS)
  const username = requiredText('authentication.username', value.username)
  const password = typeof value.password === 'string' ? value.password : requiredText('authentication.password', value.password)
  return { mechanism: KAFKAJS_MECHANISM[mechanism], username, password } as SASLOptions
}

/** `none` or `Idle,Interval,Probes` in seconds (emqx_schema:validate_tcp_keepalive). */
function keepaliveIdle(value: unknown): number | undefined {
  if (value === undefined || value === 'none') return undefined
  const m = typeof value === 'string' ? /^\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*$/.exec(value) : null
  if (!m) throw new Error('socket_opts.tcp_keepalive: must be none or Idle,Interval,Probes in seconds, such as 240,30,5')
  return Number(m[1]) * 1000
}

function socketOptions(value: unknown): { nodelay: boolean; keepaliveIdleMs: number | undefined } {
  const opts = value === undefined ? {} : value
  if (!isObject(opts)) throw new Error('socket_opts: must be an object')
  for (const field of ['sndbuf', 'recbuf'] as const) {
    if (opts[field] !== undefined && byteSize(`socket_opts.${field}`, opts[field]) !== DEFAULT_SOCKET_BUFFER) {
      throw new Error(`socket_opts.${field}: Node sets no socket buffer size, so only the default 1MB is accepted`)
    }
  }
  return { nodelay: opts.nodelay === undefined ? true : bool('socket_opts.nodelay', opts.nodelay), keepaliveIdleMs: keepaliveIdle(opts.tcp_keepalive) }
}

/** The connector's config checked and settled; throws the reason it is refused. */
export function kafkaConnectorSettings(config: Record<string, unknown>): KafkaConnectorSettings {
  const c: Record<string, unknown> = { ...KAFKA_CONNECTOR_DEFAULTS, ...config }
  const brokers = bootstrapHosts(c.bootstrap_hosts)
  const rawSsl = isObject(c.ssl) ? c.ssl : {}
  const sni = rawSsl.server_name_indication
  // `auto` is Kafka's own value (one name per broker); the client TLS group knows a name or `disable`.
  const ssl = parseClientSsl({ ...rawSsl, server_name_indication: sni === 'auto' ? undefined : sni })
  const socket = socketOptions(c.socket_opts)
  return {
    brokers,
    connectTimeoutMs: durationMs('connect_timeout', c.connect_timeout),
    requestTimeoutMs: durationMs('metadata_request_timeout', c.metadata_request_timeout),
    minMetadataRefreshMs: durationMs('min_metadata_refresh_interval', c.min_metadata_refresh_interval),
    sasl: authentication(c.authentication),
    // An address as the host: the name sent as SNI is decided per broker below.
    tls: ssl.enable ? clientTlsOptions({ ...ssl, server_name_indication: ssl.server_name_indication ?? 'disable' }, '0.0.0.0') : undefined,
    sniAuto: sni === undefined || sni === 'auto',
    ...socket,
    healthCheckTopic: optionalText('health_check_topic', c.health_check_topic) || undefined,
  }
}

/** How kafkajs opens each broker connection: TLS with SNI per broker when `auto`, nodelay and keepalive as configured. */
export function kafkaSocketFactory(settings: KafkaConnectorSettings): ISocketFactory {
  return ({ host, port, onConnect }) => {
    const tls = settings.tls
    const socket: Socket = tls
      ? tlsConnect({ ...tls, host, port, ...(settings.sniAuto && isIP(host) === 0 ? { servername: host } : {}) }, onConnect)
      : netConnect({ host, port }, onConnect)
    socket.setNoDelay(settings.nodelay)
    if (settings.keepaliveIdleMs !== undefined) socket.setKeepAlive(true, settings.keepaliveIdleMs)
    return socket
  }
}
