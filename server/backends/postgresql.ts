// PostgreSQL for authentication, authorization and data integration: one connection pool per
// backend (node-postgres, the maintained driver), queries as prepared statements whose parameters
// are the placeholders' values, never text spliced into SQL.
import pg from 'pg'
import { checked, parseServer, type Backend, type BackendHealth, type SqlConfig } from './resource.ts'
import { sqlParams, type SqlTemplate, type TemplateValues } from './template.ts'

export type PostgresConfig = SqlConfig

export class PostgresBackend implements Backend {
  private readonly pool: pg.Pool
  private readonly timeoutMs: number

  constructor(config: PostgresConfig) {
    const { host, port } = parseServer(config.server, 5432)
    this.timeoutMs = config.timeoutMs ?? 5000
    this.pool = new pg.Pool({
      host,
      port,
      database: config.database,
      user: config.username,
      password: config.password ?? '',
      max: config.pool_size ?? 8,
      connectionTimeoutMillis: this.timeoutMs,
      query_timeout: this.timeoutMs,
    })
    // An idle connection that breaks is dropped by the pool; the next query opens another.
    this.pool.on('error', () => {})
  }

  async query(statement: SqlTemplate, values: TemplateValues): Promise<Record<string, unknown>[]> {
    const result = await this.pool.query({ text: statement.text, values: sqlParams(statement, values) })
    return result.rows as Record<string, unknown>[]
  }

  health(): Promise<BackendHealth> {
    return checked(this.timeoutMs, () => this.pool.query('SELECT 1'))
  }

  close(): Promise<void> {
    return this.pool.end()
  }
}
