// MySQL and MariaDB for authentication, authorization and data integration: one pool per backend
// (mysql2, the maintained driver), placeholders sent as statement parameters.
import type { ConnectionOptions } from 'node:tls'
import mysql from 'mysql2/promise'
import { checked, parseServer, type Backend, type BackendHealth, type SqlConfig } from './resource.ts'
import { sqlParams, type SqlTemplate, type TemplateValues } from './template.ts'

export type MysqlConfig = SqlConfig

export class MysqlBackend implements Backend {
  private readonly pool: mysql.Pool
  private readonly timeoutMs: number

  constructor(config: MysqlConfig) {
    const { host, port } = parseServer(config.server, 3306)
    this.timeoutMs = config.timeoutMs ?? 5000
    this.pool = mysql.createPool({
      host,
      port,
      database: config.database,
      user: config.username,
      password: config.password ?? '',
      connectionLimit: config.pool_size ?? 8,
      connectTimeout: this.timeoutMs,
      ...(config.tls ? { ssl: mysqlTls(config.tls) } : {}),
    })
    this.pool.on('connection', (connection) => connection.on('error', () => {}))
  }

  async query(statement: SqlTemplate, values: TemplateValues): Promise<Record<string, unknown>[]> {
    const [rows] = await this.pool.query({ sql: statement.text, values: sqlParams(statement, values), timeout: this.timeoutMs })
    return rows as Record<string, unknown>[]
  }

  /** Runs a statement as a server-side prepared statement with typed parameters (data integration's rows). */
  async execute(sql: string, params: readonly unknown[]): Promise<void> {
    await this.pool.execute({ sql, values: params as never, timeout: this.timeoutMs })
  }

  /** Prepares a statement without running it: throws what the server says of it (a missing table). */
  async prepare(sql: string): Promise<void> {
    const connection = await this.pool.getConnection()
    try {
      await connection.prepare(sql)
      // Through the driver's cache, so a later execute does not reuse the closed statement.
      connection.unprepare(sql)
    } finally {
      connection.release()
    }
  }

  health(): Promise<BackendHealth> {
    return checked(this.timeoutMs, () => this.pool.query('SELECT 1'))
  }

  close(): Promise<void> {
    return this.pool.end()
  }
}

/** Node's TLS options as mysql2 takes them (its own subset, PEM as text or bytes). */
function mysqlTls(options: ConnectionOptions): mysql.SslOptions {
  const { ca, cert, key, passphrase, ciphers, minVersion, maxVersion, rejectUnauthorized } = options
  const pem = (value: unknown) => (value === undefined ? undefined : (value as string | Buffer))
  return { ca: pem(ca), cert: pem(cert), key: pem(key), passphrase, ciphers, minVersion, maxVersion, rejectUnauthorized }
}
