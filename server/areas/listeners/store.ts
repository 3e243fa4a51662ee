// The listeners' configurations as saved (EMQX keeps them in its cluster config): one row a listener.
import type { ListenerConfig, ListenerType } from '../../../contract/listeners.ts'
import type { Database } from '../../store/db.ts'

export interface SavedListener {
  id: string
  type: ListenerType
  name: string
  config: ListenerConfig
}

interface Row {
  id: string
  type: ListenerType
  name: string
  config: string
}

export class ListenersRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  list(): SavedListener[] {
    const rows = this.db.statement('SELECT id, type, name, config FROM listeners ORDER BY rowid').all() as unknown as Row[]
    return rows.map((row) => ({ id: row.id, type: row.type, name: row.name, config: JSON.parse(row.config) as ListenerConfig }))
  }

  save(listener: SavedListener): void {
    this.db
      .statement('INSERT INTO listeners (id, type, name, config) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET config = excluded.config')
      .run(listener.id, listener.type, listener.name, JSON.stringify(listener.config))
  }

  remove(id: string): void {
    this.db.statement('DELETE FROM listeners WHERE id = ?').run(id)
  }
}
