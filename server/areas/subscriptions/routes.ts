// GET /subscriptions, and the subscription shape GET /clients/{clientid}/subscriptions shares.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { Broker } from '../../broker/broker.ts'
import type { Session } from '../../broker/session.ts'
import { isValidFilter, matchesFilter } from '../../broker/topic-trie.ts'
import { badRequest, parseInput } from '../../http/errors.ts'
import { integerText, pageOf, pagingEntries } from '../../http/paging.ts'

/** A session's subscriptions as EMQX lists them (`$share/<group>/` kept in the topic). */
export function subscriptionRows(session: Session, node: string) {
  return [...session.subscriptions].map(([topic, options]) => ({
    clientid: session.clientid,
    node,
    topic,
    qos: options.qos,
    nl: options.nl ? 1 : 0,
    rap: options.rap ? 1 : 0,
    rh: options.rh,
    ...(options.share !== undefined ? { share_group: options.share } : {}),
    durable: false,
  }))
}

const SubscriptionQuery = v.object({
  ...pagingEntries(100),
  clientid: v.optional(v.string()),
  topic: v.optional(v.string()),
  qos: v.optional(v.pipe(integerText, v.maxValue(2, 'must be 0, 1 or 2'))),
  share_group: v.optional(v.string()),
  /** A topic filter: lists the subscriptions whose topic it matches (EMQX `emqx_topic:match(SubTopic, MatchTopic)`). */
  match_topic: v.optional(v.pipe(v.string(), v.check(isValidFilter, 'must be a valid topic filter'))),
  node: v.optional(v.string()),
})

export async function subscriptionRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  app.get('/subscriptions', async (request) => {
    const { broker } = deps
    const q = parseInput(SubscriptionQuery, request.query, 'query')
    if (q.node !== undefined && q.node !== broker.node) throw badRequest(`invalid node: ${q.node}`)
    const sessions = q.clientid !== undefined ? [broker.getSession(q.clientid)].filter((s) => s !== undefined) : broker.listSessions()
    const rows = sessions
      .flatMap((session) => subscriptionRows(session, broker.node))
      .filter(
        (row) =>
          (q.topic === undefined || row.topic === q.topic) &&
          (q.qos === undefined || row.qos === q.qos) &&
          (q.share_group === undefined || row.share_group === q.share_group) &&
          (q.match_topic === undefined || matchesFilter(q.match_topic, row.topic)),
      )
    return pageOf(rows, q.page, q.limit)
  })
}
