// Delayed messages (`$delayed/{seconds}/{topic}`) in SQLite, so they survive a restart and are
// published after it.
import type { QoS } from 'mqtt-packet'
import type { Message } from '../../broker/message.ts'
import type { Database } from '../../store/db.ts'
import { decodeProperties, encodeProperties } from '../../store/message-properties.ts'

export interface DelayedMessage {
  /** The message as it will be published (topic without the `$delayed/{seconds}/` prefix). */
  message: Message
  /** When it was published to `$delayed/...`, epoch ms. */
  publishAt: number
  /** Seconds. */
  delayedInterval: number
  /** When it goes out, epoch ms. */
  expectedAt: number
}

interface DelayedRow {
  msgid: string
  topic: string
  qos: number
  retain: number
  payload: Uint8Array
  from_clientid: string
  from_username: string | null
  properties: string | null
  publish_at: number
  delayed_interval: number
  expected_at: number
}

const COLUMNS = 'msgid, topic, qos, retain, payload, from_clientid, from_username, properties, publish_at, delayed_interval, expected_at'

function fromRow(row: DelayedRow): DelayedMessage {
  const properties = decodeProperties(row.properties)
  const expiry = properties?.messageExpiryInterval
  return {
    message: {
      id: row.msgid,
      topic: row.topic,
      payload: Buffer.from(row.payload),
      qos: row.qos as QoS,
      retain: row.retain === 1,
      from: row.from_clientid,
      fromUsername: row.from_username ?? undefined,
      timestamp: row.publish_at,
      properties,
      expiresAt: expiry !== undefined ? row.publish_at + expiry * 1000 : undefined,
    },
    publishAt: row.publish_at,
    delayedInterval: row.delayed_interval,
    expectedAt: row.expected_at,
  }
}

export class DelayedRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  add(delayed: DelayedMessage): void {
    const { message } = delayed
    this.db
      .statement(`INSERT INTO delayed_messages (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(
        message.id,
        message.topic,
        message.qos,
        message.retain ? 1 : 0,
        message.payload,
        message.from,
        message.fromUsername ?? null,
        encodeProperties(message.properties),
        delayed.publishAt,
        delayed.delayedInterval,
        delayed.expectedAt,
      )
  }

  find(msgid: string): DelayedMessage | undefined {
    const row = this.db.statement(`SELECT ${COLUMNS} FROM delayed_messages WHERE msgid = ?`).get(msgid)
    return row ? fromRow(row as unknown as DelayedRow) : undefined
  }

  /** Soonest first. */
  page(offset: number, limit: number): DelayedMessage[] {
    const rows = this.db.statement(`SELECT ${COLUMNS} FROM delayed_messages ORDER BY expected_at, msgid LIMIT ? OFFSET ?`).all(limit, offset)
    return rows.map((row) => fromRow(row as unknown as DelayedRow))
  }

  count(): number {
    return (this.db.statement('SELECT COUNT(*) AS count FROM delayed_messages').get() as { count: number }).count
  }

  delete(msgid: string): boolean {
    return Number(this.db.statement('DELETE FROM delayed_messages WHERE msgid = ?').run(msgid).changes) > 0
  }

  deleteByTopic(topic: string): number {
    return Number(this.db.statement('DELETE FROM delayed_messages WHERE topic = ?').run(topic).changes)
  }

  clear(): void {
    this.db.sql.exec('DELETE FROM delayed_messages')
  }

  /** When the next message is due, epoch ms. */
  nextDue(): number | undefined {
    const row = this.db.statement('SELECT MIN(expected_at) AS at FROM delayed_messages').get() as { at: number | null }
    return row.at ?? undefined
  }

  /** Removes and returns every message due by `now`, atomically. */
  takeDue(now: number): DelayedMessage[] {
    return this.db.transaction(() => {
      const rows = this.db.statement(`SELECT ${COLUMNS} FROM delayed_messages WHERE expected_at <= ? ORDER BY expected_at, msgid`).all(now)
      this.db.statement('DELETE FROM delayed_messages WHERE expected_at <= ?').run(now)
      return rows.map((row) => fromRow(row as unknown as DelayedRow))
    })
  }
}
