// GET /clients_v2: EMQX 5.8's client list by cursor. Same filters as /clients (EMQX ignores `node`
// here), `limit` rows a page, and `meta.cursor` while more rows may follow; no total count.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { BAD_CURSOR, clientCursorEntries } from '../../../contract/clients.ts'
import type { Broker } from '../../broker/broker.ts'
import type { Session } from '../../broker/session.ts'
import { clientFilterEntries, clientRecord, matches, project } from './routes.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import { pagingEntries } from '../../http/paging.ts'

const { node: _ignoredByEmqx, ...filters } = clientFilterEntries
const ClientsV2Query = v.object({ limit: pagingEntries(100).limit, ...clientCursorEntries, ...filters })

/**
 * Sessions are listed in the order they were created. Each gets a rising position the first time a
 * listing sees it (new sessions only ever join at the end), and a cursor is the last row's position:
 * the next page starts after it even once that session is gone.
 */
const positions = new WeakMap<Session, number>()
let lastPosition = 0

function positionOf(session: Session): number {
  let position = positions.get(session)
  if (position === undefined) {
    position = ++lastPosition
    positions.set(session, position)
  }
  return position
}

const encodeCursor = (position: number) => Buffer.from(`p${position}`).toString('base64url')

function decodeCursor(text: string): number {
  const match = /^p(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString('latin1'))
  if (!match) throw contractError(BAD_CURSOR)
  return Number(match[1])
}

export async function clientsV2Routes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  const { broker } = deps

  app.get('/clients_v2', async (request) => {
    const q = parseInput(ClientsV2Query, request.query, 'query')
    const sessions = broker.listSessions()
    const after = q.cursor === undefined ? 0 : decodeCursor(q.cursor)
    // Numbering every session in list order keeps positions rising along the list.
    const start = sessions.map(positionOf).findIndex((position) => position > after)
    let i = start < 0 ? sessions.length : start
    const rows: Session[] = []
    for (; i < sessions.length && rows.length < q.limit; i++) if (matches(sessions[i], q)) rows.push(sessions[i])
    let more = false
    for (let j = i; j < sessions.length && !more; j++) more = matches(sessions[j], q)
    const last = rows.at(-1)
    return {
      data: rows.map((session) => project(clientRecord(session, broker.node, broker.options.maxSubscriptions), q.fields)),
      meta: { count: rows.length, ...(more && last ? { cursor: encodeCursor(positionOf(last)) } : {}) },
    }
  })
}
