// GET /topics (the routing table, paged) and GET /topics/{topic}. Query, record and errors are the
// contract's (contract/topics.ts).
import type { FastifyInstance } from 'fastify'
import type { Page } from '../../../contract/paging.ts'
import { TopicListQuery, topicsErrors, type TopicRecord } from '../../../contract/topics.ts'
import type { Broker } from '../../broker/broker.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import { pageOf } from '../../http/paging.ts'

/** One route per subscribed filter (shared ones per group), as EMQX's router has them. */
function routes(broker: Broker): TopicRecord[] {
  const topics = new Set<string>()
  for (const session of broker.listSessions()) for (const topic of session.subscriptions.keys()) topics.add(topic)
  return [...topics].sort().map((topic) => ({ topic, node: broker.node }))
}

export async function topicRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  const { broker } = deps

  app.get('/topics', async (request): Promise<Page<TopicRecord>> => {
    const q = parseInput(TopicListQuery, request.query, 'query')
    if (q.node !== undefined && q.node !== broker.node) throw contractError(topicsErrors.badRequest, `invalid node: ${q.node}`)
    const rows = routes(broker).filter((route) => q.topic === undefined || route.topic === q.topic)
    return pageOf(rows, q.page, q.limit)
  })

  app.get<{ Params: { topic: string } }>('/topics/:topic', async (request): Promise<TopicRecord[]> => {
    const found = routes(broker).filter((route) => route.topic === request.params.topic)
    if (found.length === 0) throw contractError(topicsErrors.notFound)
    return found
  })
}
