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
      ...(config.tls ? { ssl: config.tls } : {}),
    })
    // An idle connection that breaks is dropped by the pool; the next query opens another.
    this.pool.on('error', () => {})
  }

  async query(statement: SqlTemplate, values: TemplateValues): Promise<Record<string, unknown>[]> {
    const result = await this.pool.query({ text: statement.text, values: sqlParams(statement, values) })
    return result.rows as Record<string, unknown>[]
  }

  /**
   * Runs a statement with typed parameters (data integration's rendered rows); `name` makes it a
   * named prepared statement, parsed once per connection.
   */
  async execute(text: string, params: readonly unknown[], name?: string): Promise<number> {
    const result = await this.pool.query({ text, values: params as unknown[], name })
    return result.rowCount ?? 0
  }

  /**
   * Runs one statement for several rows on one connection, all or none (EMQX's execute_batch sends
   * them in one pipeline ending with one Sync, so they commit together).
   */
  async executeBatch(text: string, rows: ReadonlyArray<readonly unknown[]>, name?: string): Promise<void> {
    const client = await this.pool.connect()
    try {
      await client.query('BEGIN')
      for (const params of rows) await client.query({ text, values: params as unknown[], name })
      await client.query('COMMIT')
      client.release()
    } catch (error) {
      // A connection that broke mid-batch is not handed out again.
      await client.query('ROLLBACK').then(
        () => client.release(),
        () => client.release(true),
      )
      throw error
    }
  }

  /** Parses a statement without running it (PREPARE, then DEALLOCATE): throws what PostgreSQL says of it. */
  async parse(text: string): Promise<void> {
    const client = await this.pool.connect()
    try {
      await client.query(`PREPARE emqx_console_check AS ${text}`)
      await client.query('DEALLOCATE emqx_console_check')
    } finally {
      client.release()
    }
  }

  health(): Promise<BackendHealth> {
    return checked(this.timeoutMs, () => this.pool.query('SELECT 1'))
  }

  close(): Promise<void> {
    return this.pool.end()
  }
}
