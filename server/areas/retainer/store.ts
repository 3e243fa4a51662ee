// Retained messages in SQLite, one row per topic. A subscription without wildcards is a primary-key
// lookup; one with wildcards reads only the topics under its literal prefix.
import type { QoS } from 'mqtt-packet'
import type { ClearRule, RetainedStore } from '../../broker/retainer.ts'
import type { Message } from '../../broker/message.ts'
import { matchesFilter } from '../../broker/topic-trie.ts'
import type { Database } from '../../store/db.ts'
import { decodeProperties, encodeProperties } from '../../store/message-properties.ts'

interface RetainedRow {
  topic: string
  msgid: string
  qos: number
  payload: Uint8Array
  from_clientid: string
  from_username: string | null
  properties: string | null
  publish_at: number
  expires_at: number | null
}

const COLUMNS = 'topic, msgid, qos, payload, from_clientid, from_username, properties, publish_at, expires_at'

function fromRow(row: RetainedRow): Message {
  return {
    id: row.msgid,
    topic: row.topic,
    payload: Buffer.from(row.payload),
    qos: row.qos as QoS,
    retain: true,
    from: row.from_clientid,
    fromUsername: row.from_username ?? undefined,
    timestamp: row.publish_at,
    properties: decodeProperties(row.properties),
    expiresAt: row.expires_at ?? undefined,
  }
}

/** The literal part of a filter before its first wildcard level ('' when it starts with one). */
function literalPrefix(filter: string): string {
  const levels = filter.split('/')
  const index = levels.findIndex((level) => level === '+' || level === '#')
  return index < 0 ? filter : levels.slice(0, index).join('/') + (index > 0 ? '/' : '')
}

export class SqliteRetainedStore implements RetainedStore {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  get(topic: string): Message | undefined {
    const row = this.db.statement(`SELECT ${COLUMNS} FROM retained_messages WHERE topic = ?`).get(topic)
    return row ? fromRow(row as unknown as RetainedRow) : undefined
  }

  put(message: Message): void {
    this.db
      .statement(
        `INSERT INTO retained_messages (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (topic) DO UPDATE SET ` +
          'msgid = excluded.msgid, qos = excluded.qos, payload = excluded.payload, from_clientid = excluded.from_clientid, ' +
          'from_username = excluded.from_username, properties = excluded.properties, publish_at = excluded.publish_at, expires_at = excluded.expires_at',
      )
      .run(
        message.topic,
        message.id,
        message.qos,
        message.payload,
        message.from,
        message.fromUsername ?? null,
        encodeProperties(message.properties),
        message.timestamp,
        message.expiresAt ?? null,
      )
  }

  delete(topic: string): boolean {
    return Number(this.db.statement('DELETE FROM retained_messages WHERE topic = ?').run(topic).changes) > 0
  }

  match(filter: string): Message[] {
    const prefix = literalPrefix(filter)
    if (prefix === filter) {
      const one = this.get(filter)
      return one ? [one] : []
    }
    const rows =
      prefix === ''
        ? this.db.statement(`SELECT ${COLUMNS} FROM retained_messages ORDER BY topic`).all()
        : // Every topic starting with the prefix sorts between it and the prefix with its last character bumped.
          this.db
            .statement(`SELECT ${COLUMNS} FROM retained_messages WHERE topic >= ? AND topic < ? ORDER BY topic`)
            .all(prefix, prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1))
    // `a/#` also matches `a` itself, which sorts before `a/`.
    const parent = filter.endsWith('/#') && prefix === filter.slice(0, -1) ? this.get(filter.slice(0, -2)) : undefined
    const messages = rows.map((row) => fromRow(row as unknown as RetainedRow)).filter((message) => matchesFilter(filter, message.topic))
    return parent && matchesFilter(filter, parent.topic) ? [parent, ...messages] : messages
  }

  matchPage(filter: string, after: string | undefined, limit: number): Message[] {
    const prefix = literalPrefix(filter)
    if (prefix === filter) return after === undefined ? this.match(filter) : []
    // `a/#` also matches `a` itself, which sorts before `a/`.
    const parent = filter.endsWith('/#') && prefix === filter.slice(0, -1) ? filter.slice(0, -2) : null
    const range =
      prefix === ''
        ? 'topic > ?'
        : '((topic >= ? AND topic < ?) OR topic = ?) AND topic > ?'
    const statement = this.db.statement(`SELECT ${COLUMNS} FROM retained_messages WHERE ${range} ORDER BY topic LIMIT ?`)
    const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)
    const found: Message[] = []
    let cursor = after ?? ''
    // Rows under the prefix that the filter does not match are skipped; read on until the page is full.
    for (;;) {
      const rows = (prefix === '' ? statement.all(cursor, limit) : statement.all(prefix, upper, parent, cursor, limit)) as unknown as RetainedRow[]
      for (const row of rows) if (matchesFilter(filter, row.topic)) found.push(fromRow(row))
      if (rows.length < limit || found.length >= limit) return found.slice(0, limit)
      cursor = rows[rows.length - 1].topic
    }
  }

  page(offset: number, limit: number): Message[] {
    const rows = this.db.statement(`SELECT ${COLUMNS} FROM retained_messages ORDER BY publish_at, topic LIMIT ? OFFSET ?`).all(limit, offset)
    return rows.map((row) => fromRow(row as unknown as RetainedRow))
  }

  count(): number {
    return (this.db.statement('SELECT COUNT(*) AS count FROM retained_messages').get() as { count: number }).count
  }

  clear(): void {
    this.db.sql.exec('DELETE FROM retained_messages')
  }

  removeExpired(now: number, rule?: ClearRule): number {
    const override = rule?.overrideMs ?? null
    const result = this.db
      .statement(
        `DELETE FROM retained_messages WHERE rowid IN (
           SELECT rowid FROM retained_messages WHERE
             (expires_at IS NOT NULL AND MIN(expires_at, COALESCE(publish_at + :override, expires_at)) <= :now)
             OR (expires_at IS NULL AND :override IS NOT NULL AND NOT :allowNever AND publish_at + :override <= :now)
           LIMIT :limit)`,
      )
      .run({ override, now, allowNever: rule?.allowNeverExpire === false ? 0 : 1, limit: rule?.limit ?? -1 })
    return Number(result.changes)
  }
}
