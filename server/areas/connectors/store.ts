// The integration_resources table: connectors, actions and sources by kind, type and name.
import type { Database } from '../../store/db.ts'

/** EMQX's config roots: `connectors`, `actions`, `sources`. */
export type ResourceKind = 'connectors' | 'actions' | 'sources'

export interface StoredResource {
  kind: ResourceKind
  type: string
  name: string
  /** The config with defaults, secrets in clear; `enable` among it. */
  config: Record<string, unknown>
  /** Epoch ms. */
  createdAt: number
  updatedAt: number
}

interface Row {
  kind: ResourceKind
  type: string
  name: string
  config: string
  created_at: number
  updated_at: number
}

const COLUMNS = 'kind, type, name, config, created_at, updated_at'
const fromRow = (row: Row): StoredResource => ({
  kind: row.kind,
  type: row.type,
  name: row.name,
  config: JSON.parse(row.config) as Record<string, unknown>,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

export class IntegrationRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  /** Oldest first. */
  list(kind: ResourceKind): StoredResource[] {
    const rows = this.db.statement(`SELECT ${COLUMNS} FROM integration_resources WHERE kind = ? ORDER BY created_at, type, name`).all(kind)
    return rows.map((row) => fromRow(row as unknown as Row))
  }

  get(kind: ResourceKind, type: string, name: string): StoredResource | undefined {
    const row = this.db.statement(`SELECT ${COLUMNS} FROM integration_resources WHERE kind = ? AND type = ? AND name = ?`).get(kind, type, name)
    return row ? fromRow(row as unknown as Row) : undefined
  }

  put(resource: StoredResource): void {
    this.db
      .statement(
        `INSERT INTO integration_resources (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ` +
          'ON CONFLICT (kind, type, name) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at',
      )
      .run(resource.kind, resource.type, resource.name, JSON.stringify(resource.config), resource.createdAt, resource.updatedAt)
  }

  delete(kind: ResourceKind, type: string, name: string): boolean {
    return Number(this.db.statement('DELETE FROM integration_resources WHERE kind = ? AND type = ? AND name = ?').run(kind, type, name).changes) > 0
  }
}
