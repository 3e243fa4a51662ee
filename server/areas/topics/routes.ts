// GET /topics (the routing table, paged) and GET /topics/{topic}.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { Broker } from '../../broker/broker.ts'
import { ApiError, badRequest, parseInput } from '../../http/errors.ts'
import { pageOf, pagingEntries } from '../../http/paging.ts'

/** One route per subscribed filter (shared ones per group), as EMQX's router has them. */
function routes(broker: Broker): Array<{ topic: string; node: string }> {
  const topics = new Set<string>()
  for (const session of broker.listSessions()) for (const topic of session.subscriptions.keys()) topics.add(topic)
  return [...topics].sort().map((topic) => ({ topic, node: broker.node }))
}

const TopicsQuery = v.object({
  ...pagingEntries(100),
  topic: v.optional(v.string()),
  node: v.optional(v.string()),
})

export async function topicRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  const { broker } = deps

  app.get('/topics', async (request) => {
    const q = parseInput(TopicsQuery, request.query, 'query')
    if (q.node !== undefined && q.node !== broker.node) throw badRequest(`invalid node: ${q.node}`)
    const rows = routes(broker).filter((route) => q.topic === undefined || route.topic === q.topic)
    return pageOf(rows, q.page, q.limit)
  })

  app.get<{ Params: { topic: string } }>('/topics/:topic', async (request) => {
    const found = routes(broker).filter((route) => route.topic === request.params.topic)
    if (found.length === 0) throw new ApiError(404, 'TOPIC_NOT_FOUND', 'Topic not found')
    return found
  })
}
