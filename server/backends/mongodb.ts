// MongoDB for authentication, authorization and data integration, through MongoDB's official Node
// driver: a single server, a replica set or a sharded cluster as EMQX's `mongo_type` says; filters
// are JSON documents whose string values are templates.
import { MongoClient, type Document } from 'mongodb'
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
    this.client = new MongoClient(`mongodb://${credentials}${list}/`, {
      ...(config.username ? { authSource: config.auth_source || 'admin' } : {}),
      ...(config.mongo_type === 'rs' ? { replicaSet: config.replica_set_name } : {}),
      ...(config.mongo_type === 'single' ? { directConnection: true } : {}),
      maxPoolSize: config.pool_size ?? 8,
      serverSelectionTimeoutMS: this.timeoutMs,
      connectTimeoutMS: this.timeoutMs,
    })
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
