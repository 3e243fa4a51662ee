// MongoDB for authentication, authorization and data integration, through MongoDB's official Node
// driver: a single server, a replica set or a sharded cluster as EMQX's `mongo_type` says; filters
// are JSON documents whose string values are templates.
import { createSecureContext, type ConnectionOptions } from 'node:tls'
import { MongoClient, type Document, type MongoClientOptions } from 'mongodb'
import { checked, parseServer, type Backend, type BackendHealth } from './resource.ts'
import { renderDeep, type DeepTemplate, type TemplateValues } from './template.ts'

export type MongoConfig = {
  database: string
  username?: string
  password?: string
  /** The database the credentials are defined in (EMQX `auth_source`, default `admin`). */
  auth_source?: string
  pool_size?: number
  timeoutMs?: number
  /** EMQX `srv_record`: the first server's host is a DNS name whose SRV and TXT records give the hosts and options. */
  srv_record?: boolean
  /** EMQX `w_mode`: `safe` waits for the server to acknowledge a write, `unsafe` (EMQX's default) does not. */
  w_mode?: 'safe' | 'unsafe'
  /** EMQX `r_mode`: `master` reads from the primary, `slave_ok` from a secondary when one is there. */
  r_mode?: 'master' | 'slave_ok'
  /** TLS to the servers (the client TLS group), undefined for plain TCP. */
  tls?: ConnectionOptions
  /** EMQX `topology` timings as the driver names them. */
  topology?: Pick<MongoClientOptions, 'connectTimeoutMS' | 'socketTimeoutMS' | 'serverSelectionTimeoutMS' | 'waitQueueTimeoutMS' | 'heartbeatFrequencyMS' | 'minHeartbeatFrequencyMS' | 'localThresholdMS'>
} & ({ mongo_type: 'single'; server: string } | { mongo_type: 'rs'; servers: string; replica_set_name: string } | { mongo_type: 'sharded'; servers: string })

function hosts(servers: string): string {
  return servers
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean)
    .map((server) => {
      const { host, port } = parseServer(server, 27017)
      return `${host.includes(':') ? `[${host}]` : host}:${port}`
    })
    .join(',')
}

export class MongoBackend implements Backend {
  private readonly client: MongoClient
  private readonly database: string
  private readonly timeoutMs: number

  constructor(config: MongoConfig) {
    this.database = config.database
    this.timeoutMs = config.timeoutMs ?? 5000
    const list = config.mongo_type === 'single' ? hosts(config.server) : hosts(config.servers)
    const credentials = config.username ? `${encodeURIComponent(config.username)}:${encodeURIComponent(config.password ?? '')}@` : ''
    // An SRV name is one host without a port; the driver resolves its SRV and TXT records as EMQX does.
    const url = config.srv_record ? `mongodb+srv://${credentials}${list.split(',')[0].replace(/:\d+$/, '')}/` : `mongodb://${credentials}${list}/`
    this.client = new MongoClient(url, {
      ...(config.username ? { authSource: config.auth_source || 'admin' } : {}),
      ...(config.mongo_type === 'rs' && config.replica_set_name ? { replicaSet: config.replica_set_name } : {}),
      ...(config.mongo_type === 'single' && !config.srv_record ? { directConnection: true } : {}),
      ...(config.w_mode ? { writeConcern: { w: config.w_mode === 'safe' ? 1 : 0 } } : {}),
      ...(config.r_mode ? { readPreference: config.r_mode === 'slave_ok' ? 'secondaryPreferred' : 'primary' } : {}),
      ...(config.tls ? mongoTls(config.tls) : {}),
      maxPoolSize: config.pool_size ?? 8,
      serverSelectionTimeoutMS: this.timeoutMs,
      connectTimeoutMS: this.timeoutMs,
      ...config.topology,
    })
  }

  /** Inserts documents into `collection` (data integration's rows), with the connection's write concern. */
  async insert(collection: string, documents: Document[]): Promise<void> {
    await this.client.db(this.database).collection(collection).insertMany(documents, { ordered: true })
  }

  /** The first document of `collection` matching the filter (a template). */
  async findOne(collection: string, filter: DeepTemplate, values: TemplateValues): Promise<Document | null> {
    return this.client.db(this.database).collection(collection).findOne(renderDeep(filter, values) as Document)
  }

  /** The documents of `collection` matching the filter (a template), `skip` and `limit` as given. */
  async find(collection: string, filter: DeepTemplate, values: TemplateValues, page: { limit?: number; skip?: number } = {}): Promise<Document[]> {
    return this.client.db(this.database).collection(collection).find(renderDeep(filter, values) as Document, page).toArray()
  }

  health(): Promise<BackendHealth> {
    return checked(this.timeoutMs, () => this.client.db(this.database).command({ ping: 1 }))
  }

  close(): Promise<void> {
    return this.client.close()
  }
}

/**
 * Node's TLS options as the MongoDB driver takes them: it passes on only some socket options, so the
 * certificates, ciphers and TLS versions travel in one secure context.
 */
function mongoTls(options: ConnectionOptions): MongoClientOptions {
  const { ca, cert, key, passphrase, ciphers, minVersion, maxVersion, rejectUnauthorized, servername } = options
  return {
    tls: true,
    secureContext: createSecureContext({ ca, cert, key, passphrase, ciphers, minVersion, maxVersion }),
    rejectUnauthorized,
    ...(servername ? { servername } : {}),
    ...(rejectUnauthorized === false ? { tlsAllowInvalidHostnames: true } : {}),
  }
}
