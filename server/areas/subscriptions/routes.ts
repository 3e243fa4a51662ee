// GET /subscriptions, and the subscription record GET /clients/{clientid}/subscriptions shares. Query,
// record and error are the contract's (contract/subscriptions.ts).
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { Page } from '../../../contract/paging.ts'
import { SubscriptionListQuery, subscriptionsErrors, type SubscriptionRecord } from '../../../contract/subscriptions.ts'
import type { Broker } from '../../broker/broker.ts'
import type { Session } from '../../broker/session.ts'
import { isValidFilter, matchesFilter } from '../../broker/topic-trie.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import { pageOf } from '../../http/paging.ts'

/** A session's subscriptions as EMQX lists them (`$share/<group>/` kept in the topic). */
export function subscriptionRows(session: Session, node: string): SubscriptionRecord[] {
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

/** The contract's query with the check that needs the broker's topic rules. */
const SubscriptionQuery = v.object({
  ...SubscriptionListQuery.entries,
  match_topic: v.optional(v.pipe(v.string(), v.check(isValidFilter, 'must be a valid topic filter'))),
})

export async function subscriptionRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  app.get('/subscriptions', async (request): Promise<Page<SubscriptionRecord>> => {
    const { broker } = deps
    const q = parseInput(SubscriptionQuery, request.query, 'query')
    if (q.node !== undefined && q.node !== broker.node) throw contractError(subscriptionsErrors.badRequest, `invalid node: ${q.node}`)
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
