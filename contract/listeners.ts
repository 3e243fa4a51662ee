// Listeners (EMQX `/listeners`, `/listeners_status`), written once for the server and the browser:
// the configuration of each type with 5.8's defaults, the bodies of create and update, the answers
// the server writes, the loose shapes the browser reads from any EMQX 5, and the errors.
import * as v from 'valibot'
import { durationText, parseDuration, sizeText } from './units.ts'

/** Every listener type EMQX 5 knows. */
export const LISTENER_TYPES = ['tcp', 'ssl', 'ws', 'wss', 'quic'] as const
export type ListenerType = (typeof LISTENER_TYPES)[number]

/** The port a listener of each type binds by default in EMQX. */
export const DEFAULT_PORTS: Record<ListenerType, number> = { tcp: 1883, ssl: 8883, ws: 8083, wss: 8084, quic: 14567 }

/** The types that speak TLS (their `ssl_options` hold a certificate and key). */
export const TLS_TYPES: readonly ListenerType[] = ['ssl', 'wss']
/** The types that speak WebSocket (their `websocket` section applies). */
export const WS_TYPES: readonly ListenerType[] = ['ws', 'wss']

/** `tcp:default` -> type and name; undefined when the type is unknown or the name empty. */
export function parseListenerId(id: string): { type: ListenerType; name: string } | undefined {
  const at = id.indexOf(':')
  if (at < 0) return undefined
  const type = id.slice(0, at)
  const name = id.slice(at + 1)
  if (!(LISTENER_TYPES as readonly string[]).includes(type) || name === '') return undefined
  return { type: type as ListenerType, name }
}

/** A listener's `bind`: `1883`, `:1883`, `0.0.0.0:1883` or `[::1]:1883`. Host undefined: every interface. */
export function parseBind(bind: string | number): { host: string | undefined; port: number } | undefined {
  const text = String(bind).trim()
  const portOnly = /^:?(\d{1,5})$/.exec(text)
  const m = portOnly ? undefined : /^(?:\[([0-9a-fA-F:.]+)\]|(\d{1,3}(?:\.\d{1,3}){3})|([a-zA-Z][a-zA-Z0-9.-]*)):(\d{1,5})$/.exec(text)
  const port = Number(portOnly?.[1] ?? m?.[4])
  if ((!portOnly && !m) || port > 65535) return undefined
  return { host: m?.[1] ?? m?.[2] ?? m?.[3], port }
}

/** `0.0.0.0:1883`, `[::]:1883`, and `:1883` for every interface, as EMQX's `format_bind`. */
export function formatBind(bind: { host: string | undefined; port: number }): string {
  if (bind.host === undefined) return `:${bind.port}`
  return bind.host.includes(':') ? `[${bind.host}]:${bind.port}` : `${bind.host}:${bind.port}`
}

/** A rate: `1000/s`, `100/10s`; undefined when it is not one (`infinity` is no limit). */
export function parseRate(text: string): { count: number; perMs: number } | undefined {
  const m = /^(\d+)\s*\/\s*(\d*)(ms|s|m|h|d)$/.exec(text.trim())
  if (!m) return undefined
  const perMs = parseDuration(`${m[2] === '' ? 1 : m[2]}${m[3]}`)
  return perMs && Number(m[1]) > 0 ? { count: Number(m[1]), perMs } : undefined
}

const posInt = (message: string) => v.pipe(v.number(message), v.integer(message), v.minValue(1, message))
const nonNegInt = (message: string) => v.pipe(v.number(message), v.integer(message), v.minValue(0, message))
const infinityOr = <S extends v.GenericSchema>(schema: S) => v.union([v.literal('infinity'), schema], 'must be a positive integer or infinity')
const rateText = v.union(
  [v.literal('infinity'), v.pipe(v.string(), v.check((text) => parseRate(text) !== undefined, 'must be a rate such as 1000/s'))],
  'must be a rate such as 1000/s, or infinity',
)
const bindText = v.pipe(
  v.union([v.string(), v.number()], 'must be ip:port or port'),
  v.check((bind) => parseBind(bind) !== undefined, 'must be ip:port or port'),
  v.transform((bind) => String(bind)),
)
/** `true`, `false`, or `quick_deny_anonymous` (refuse clients without a username before the chain). */
export const ENABLE_AUTHN = [true, false, 'quick_deny_anonymous'] as const
const enableAuthn = v.union([v.boolean(), v.literal('quick_deny_anonymous')], 'must be true, false or quick_deny_anonymous')

export const TcpOptionsSchema = v.object({
  active_n: v.optional(nonNegInt('active_n must be an integer >= 0'), 100),
  backlog: v.optional(posInt('backlog must be a positive integer'), 1024),
  send_timeout: v.optional(durationText, '15s'),
  send_timeout_close: v.optional(v.boolean(), true),
  recbuf: v.optional(sizeText),
  sndbuf: v.optional(sizeText),
  buffer: v.optional(sizeText, '4KB'),
  high_watermark: v.optional(sizeText, '1MB'),
  nodelay: v.optional(v.boolean(), true),
  nolinger: v.optional(v.boolean(), false),
  reuseaddr: v.optional(v.boolean(), true),
  /** `none` or `Idle,Interval,Probes` in seconds. */
  keepalive: v.optional(v.pipe(v.string(), v.regex(/^(none|\d+,\d+,\d+)$/, 'keepalive must be none or Idle,Interval,Probes')), 'none'),
})

export const WebsocketOptionsSchema = v.object({
  mqtt_path: v.optional(v.pipe(v.string(), v.regex(/^\//, 'mqtt_path must start with /')), '/mqtt'),
  mqtt_piggyback: v.optional(v.picklist(['single', 'multiple']), 'multiple'),
  compress: v.optional(v.boolean(), false),
  idle_timeout: v.optional(durationText, '7200s'),
  max_frame_size: v.optional(infinityOr(posInt('max_frame_size must be a positive integer')), 'infinity'),
  fail_if_no_subprotocol: v.optional(v.boolean(), true),
  supported_subprotocols: v.optional(v.string(), 'mqtt, mqtt-v3, mqtt-v3.1.1, mqtt-v5'),
  check_origin_enable: v.optional(v.boolean(), false),
  allow_origin_absence: v.optional(v.boolean(), true),
  check_origins: v.optional(v.string(), 'http://localhost:18083, http://127.0.0.1:18083'),
  proxy_address_header: v.optional(v.string(), 'x-forwarded-for'),
  proxy_port_header: v.optional(v.string(), 'x-forwarded-port'),
  validate_utf8: v.optional(v.boolean(), true),
  deflate_opts: v.optional(v.record(v.string(), v.union([v.string(), v.number()])), {}),
})

export const TLS_VERSIONS = ['tlsv1.3', 'tlsv1.2', 'tlsv1.1', 'tlsv1'] as const
/** Shown in place of a key's passphrase, as EMQX masks secrets; sent back, it keeps the stored one. */
export const MASKED_SECRET = '******'

export const SslOptionsSchema = v.pipe(
  v.object({
    /** A file path, or PEM text the server writes to a file (the answer then holds the path). */
    cacertfile: v.optional(v.string()),
    certfile: v.optional(v.string()),
    keyfile: v.optional(v.string()),
    verify: v.optional(v.picklist(['verify_peer', 'verify_none'], 'verify must be verify_peer or verify_none'), 'verify_none'),
    fail_if_no_peer_cert: v.optional(v.boolean(), false),
    reuse_sessions: v.optional(v.boolean(), true),
    depth: v.optional(nonNegInt('depth must be an integer >= 0'), 10),
    password: v.optional(v.string()),
    versions: v.optional(v.array(v.picklist(TLS_VERSIONS, 'versions must be tlsv1.3, tlsv1.2, tlsv1.1 or tlsv1')), ['tlsv1.3', 'tlsv1.2']),
    ciphers: v.optional(v.array(v.string()), []),
    secure_renegotiate: v.optional(v.boolean(), true),
    client_renegotiation: v.optional(v.boolean(), true),
    honor_cipher_order: v.optional(v.boolean(), true),
    handshake_timeout: v.optional(durationText, '15s'),
    hibernate_after: v.optional(durationText, '5s'),
    log_level: v.optional(v.string(), 'notice'),
    gc_after_handshake: v.optional(v.boolean(), false),
  }),
  // emqx_schema's validate_server_ssl_opts.
  v.check((ssl) => !ssl.fail_if_no_peer_cert || ssl.verify === 'verify_peer', 'verify must be verify_peer when fail_if_no_peer_cert is true'),
)
export type SslOptions = v.InferOutput<typeof SslOptionsSchema>

/** The PEM fields of `ssl_options` and the file name prefix EMQX gives each (`cert-<hash>`). */
export const SSL_FILE_FIELDS = { certfile: 'cert', keyfile: 'key', cacertfile: 'cacert' } as const

/** An access rule's address part: `all`, an IPv4 or IPv6 address, or a CIDR range. */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | 'all' | undefined {
  if (text === 'all') return 'all'
  const [address, bits, ...rest] = text.split('/')
  if (rest.length > 0) return undefined
  const family = /^\d{1,3}(\.\d{1,3}){3}$/.test(address) && address.split('.').every((n) => Number(n) <= 255) ? 'ipv4' : /^[0-9a-fA-F:.]+$/.test(address) && address.includes(':') ? 'ipv6' : undefined
  if (!family) return undefined
  const max = family === 'ipv4' ? 32 : 128
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN
  return prefix >= 0 && prefix <= max ? { address, prefix, family } : undefined
}

/** `allow <cidr>`, `deny <cidr>`, `allow all` or `deny all`; undefined when it is none. */
export function parseAccessRule(rule: string): { allow: boolean; cidr: NonNullable<ReturnType<typeof parseCidr>> } | undefined {
  const words = rule.trim().split(/\s+/)
  if (words.length !== 2 || (words[0] !== 'allow' && words[0] !== 'deny')) return undefined
  const cidr = parseCidr(words[1])
  return cidr && { allow: words[0] === 'allow', cidr }
}

/** `access_rules`: entries joined by commas are split (5.8's converter), each must be a rule (its validator's message). */
const accessRules = v.pipe(
  v.array(v.string()),
  v.transform((rules) => rules.flatMap((rule) => rule.split(/\s*,\s*/).map((part) => part.trim()))),
  v.check((rules) => rules.every((rule) => parseAccessRule(rule) !== undefined), (issue) => `invalid_rule(s): ${(issue.input as string[]).filter((rule) => !parseAccessRule(rule)).join(', ')}`),
)

/** What every type has. */
const commonEntries = (type: ListenerType) => ({
  enable: v.optional(v.boolean(), true),
  bind: v.optional(bindText, `0.0.0.0:${DEFAULT_PORTS[type]}`),
  acceptors: v.optional(posInt('acceptors must be a positive integer'), 16),
  max_connections: v.optional(infinityOr(posInt('max_connections must be a positive integer or infinity')), 'infinity'),
  max_conn_rate: v.optional(rateText),
  messages_rate: v.optional(rateText),
  bytes_rate: v.optional(v.string()),
  /** May be empty; `${clientid}`, `${username}`, `${zone}`, `${endpoint_name}` are filled per client. */
  mountpoint: v.optional(v.string(), ''),
  zone: v.optional(v.string(), 'default'),
  enable_authn: v.optional(enableAuthn, true),
})

/** tcp, ssl, ws and wss also have these. */
const streamEntries = {
  access_rules: v.optional(accessRules, ['allow all']),
  proxy_protocol: v.optional(v.boolean(), false),
  proxy_protocol_timeout: v.optional(durationText, '3s'),
  tcp_options: v.optional(TcpOptionsSchema, {}),
}

const websocket = { websocket: v.optional(WebsocketOptionsSchema, {}) }
const ssl = { ssl_options: v.optional(SslOptionsSchema, {}) }

/** Each type's configuration with 5.8's defaults filled in. */
export const ListenerConfigSchemas = {
  tcp: v.object({ ...commonEntries('tcp'), ...streamEntries }),
  ssl: v.object({ ...commonEntries('ssl'), ...streamEntries, ...ssl }),
  ws: v.object({ ...commonEntries('ws'), ...streamEntries, ...websocket }),
  wss: v.object({ ...commonEntries('wss'), ...streamEntries, ...websocket, ...ssl }),
  quic: v.object({
    ...commonEntries('quic'),
    ciphers: v.optional(v.array(v.string()), ['TLS_AES_256_GCM_SHA384', 'TLS_AES_128_GCM_SHA256', 'TLS_CHACHA20_POLY1305_SHA256']),
    ssl_options: v.optional(v.record(v.string(), v.unknown()), {}),
  }),
} as const

type ConfigOf<T extends ListenerType> = v.InferOutput<(typeof ListenerConfigSchemas)[T]>
/** One listener's configuration, whatever its type: the fields the broker reads, optional where a type lacks them. */
export type ListenerConfig = ConfigOf<'tcp'> & Partial<Omit<ConfigOf<'wss'>, keyof ConfigOf<'tcp'>>> & { ciphers?: string[] }
export type TcpOptions = v.InferOutput<typeof TcpOptionsSchema>
export type WebsocketOptions = v.InferOutput<typeof WebsocketOptionsSchema>

/** A type's configuration read from a body or the store, with the defaults filled in; throws on a bad one. */
export function listenerConfigOf(type: ListenerType, raw: unknown): ListenerConfig {
  return v.parse(ListenerConfigSchemas[type], raw) as ListenerConfig
}

/** A type's default configuration on `bind`. */
export function defaultListenerConfig(type: ListenerType, bind: string): ListenerConfig {
  return listenerConfigOf(type, { bind })
}

/** `GET /listeners` and `/listeners_status`: an optional type filter. */
export const ListenerListQuery = v.object({ type: v.optional(v.picklist(LISTENER_TYPES)) })

/** A connection limit: a number, or `infinity` for none. */
const maxConnections = v.union([v.number(), v.literal('infinity')])

/** A listener's figures on one node, as this server writes them. */
export const ListenerStatusRecordSchema = v.object({
  running: v.boolean(),
  current_connections: v.number(),
  max_connections: maxConnections,
})

/** An item of `GET /listeners` as this server writes it: the cluster's figures and one entry a node. */
export const ListenerSummaryRecordSchema = v.object({
  id: v.string(),
  type: v.picklist(LISTENER_TYPES),
  name: v.string(),
  enable: v.boolean(),
  bind: v.string(),
  acceptors: v.number(),
  /** How many nodes report the listener. */
  number: v.number(),
  status: ListenerStatusRecordSchema,
  node_status: v.array(v.object({ node: v.string(), status: ListenerStatusRecordSchema })),
})
export type ListenerSummaryRecord = v.InferOutput<typeof ListenerSummaryRecordSchema>
export const ListenerSummaryListSchema = v.array(ListenerSummaryRecordSchema)

/** An item of `GET /listeners_status`: the figures of every listener of one type. */
const TypeStatusSchema = v.object({ ...ListenerStatusRecordSchema.entries, running: v.union([v.boolean(), v.literal('inconsistent')]) })
export const ListenerTypeStatusRecordSchema = v.object({
  type: v.picklist(LISTENER_TYPES),
  enable: v.boolean(),
  ids: v.array(v.string()),
  status: TypeStatusSchema,
  node_status: v.array(v.object({ node: v.string(), status: TypeStatusSchema })),
})
export type ListenerTypeStatusRecord = v.InferOutput<typeof ListenerTypeStatusRecordSchema>
export const ListenerTypeStatusListSchema = v.array(ListenerTypeStatusRecordSchema)

/** `GET /listeners/{id}` as this server writes it: the configuration with the node's figures beside it. */
export const ListenerRecordSchema = v.object({
  id: v.string(),
  type: v.picklist(LISTENER_TYPES),
  running: v.boolean(),
  current_connections: v.number(),
  ...commonEntries('tcp'),
  bind: v.string(),
  max_connections: maxConnections,
  access_rules: v.optional(v.array(v.string())),
  proxy_protocol: v.optional(v.boolean()),
  proxy_protocol_timeout: v.optional(v.string()),
  tcp_options: v.optional(TcpOptionsSchema),
  /** ws and wss. */
  websocket: v.optional(WebsocketOptionsSchema),
  /** ssl and wss: PEM fields hold the stored file's path, the passphrase is masked. */
  ssl_options: v.optional(v.record(v.string(), v.unknown())),
  /** quic. */
  ciphers: v.optional(v.array(v.string())),
})
export type ListenerRecord = v.InferOutput<typeof ListenerRecordSchema>

/**
 * A create or update body: `type` with `id` (`POST /listeners/{id}`, `PUT /listeners/{id}`) or
 * `name` (`POST /listeners`), and the type's configuration. `running` and `current_connections`,
 * which a client may send back from what it read, are dropped.
 */
export const ListenerBodyHead = v.looseObject({
  type: v.picklist(LISTENER_TYPES, 'unknown listener type'),
  id: v.optional(v.string()),
  name: v.optional(v.string()),
})
export type ListenerBody = v.InferOutput<typeof ListenerBodyHead> & Record<string, unknown>

/** A listener's figures as the browser reads them; `inconsistent` on the cluster total when nodes disagree. */
export const listenerStatusSchema = v.looseObject({
  running: v.optional(v.union([v.boolean(), v.literal('inconsistent')])),
  current_connections: v.optional(v.number()),
  /** A number, or `infinity` for no limit. */
  max_connections: v.optional(v.union([v.number(), v.string()])),
})
export type ListenerStatus = v.InferOutput<typeof listenerStatusSchema>

/** An item of `GET /listeners` as the browser reads it. */
export const listenerSchema = v.looseObject({
  /** `type:name`, e.g. `tcp:default`. */
  id: v.string(),
  type: v.string(),
  name: v.optional(v.string()),
  enable: v.optional(v.boolean()),
  /** `0.0.0.0:1883`. */
  bind: v.optional(v.string()),
  /** Summed over the cluster. */
  status: v.optional(listenerStatusSchema),
  node_status: v.optional(v.array(v.looseObject({ node: v.string(), status: listenerStatusSchema }))),
})
export type Listener = v.InferOutput<typeof listenerSchema>
export const listenerListSchema = v.array(listenerSchema)

/** `GET /listeners/{id}` as the browser reads it: the configuration, loose (fields differ by type and release). */
export const listenerDetailSchema = v.looseObject({
  id: v.string(),
  type: v.string(),
  enable: v.optional(v.boolean()),
  bind: v.optional(v.union([v.string(), v.number()])),
  running: v.optional(v.boolean()),
  current_connections: v.optional(v.number()),
  max_connections: v.optional(v.union([v.number(), v.string()])),
  max_conn_rate: v.optional(v.string()),
  mountpoint: v.optional(v.string()),
  zone: v.optional(v.string()),
  enable_authn: v.optional(v.union([v.boolean(), v.string()])),
  acceptors: v.optional(v.number()),
  proxy_protocol: v.optional(v.boolean()),
  proxy_protocol_timeout: v.optional(v.string()),
  tcp_options: v.optional(v.record(v.string(), v.unknown())),
  websocket: v.optional(v.record(v.string(), v.unknown())),
  ssl_options: v.optional(v.record(v.string(), v.unknown())),
})
export type ListenerDetail = v.InferOutput<typeof listenerDetailSchema>

/** The errors of this area: status and EMQX code. */
export const listenersErrors = {
  /** 400: a bad body or filter, an id that is not `<known type>:<name>`, a port in use, a bad certificate. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 400: creating an id that exists. */
  exists: { status: 400, code: 'BAD_LISTENER_ID', message: 'Already Exist' },
  /** 400: `PUT /listeners/{id}` whose body names another id. */
  idMismatch: { status: 400, code: 'BAD_LISTENER_ID', message: "Path and body's listener id not match" },
  /** 404: no listener with this id. */
  notFound: { status: 404, code: 'BAD_LISTENER_ID', message: 'Listener id not found' },
} as const
