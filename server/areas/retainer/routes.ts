// /mqtt/retainer: settings; /mqtt/retainer/messages: list (paged, by topic filter) and clear;
// /mqtt/retainer/message/{topic}: one message with its payload, or delete it.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { retainerErrors, type RetainedMessage, type RetainedPage, type RetainedSummary } from '../../../contract/retainer.ts'
import type { Retainer } from '../../broker/retainer.ts'
import type { Message } from '../../broker/message.ts'
import { isValidFilter } from '../../broker/topic-trie.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import { pageOf, pagingEntries } from '../../http/paging.ts'
import { settingsRoute } from '../../http/settings-route.ts'
import { rfc3339 } from '../../http/time.ts'
import type { AreaDeps } from '../area.ts'
import { retainerSettings } from './settings.ts'

/** Payloads larger than this are left out of the detail, as EMQX does. */
const MAX_PAYLOAD_SIZE = 1024 * 1024

function retainedSummary(message: Message): RetainedSummary {
  return {
    msgid: message.id,
    topic: message.topic,
    qos: message.qos,
    publish_at: rfc3339(message.timestamp),
    from_clientid: message.from,
    from_username: message.fromUsername ?? '',
  }
}

const MessagesQuery = v.object({
  ...pagingEntries(100),
  topic: v.optional(v.pipe(v.string(), v.check(isValidFilter, 'must be a valid topic filter'))),
})

const notFound = () => contractError(retainerErrors.notFound, "Viewed message doesn't exist")

export async function retainerRoutes(app: FastifyInstance, deps: AreaDeps<Retainer>): Promise<void> {
  const retainer = deps.feature

  settingsRoute(app, '/mqtt/retainer', retainerSettings(retainer, deps.configs))

  app.get('/mqtt/retainer/messages', async (request): Promise<RetainedPage> => {
    const q = parseInput(MessagesQuery, request.query, 'query')
    const page = pageOf(retainer.list(q.topic), q.page, q.limit)
    // EMQX counts only the unfiltered list.
    const { count, ...meta } = page.meta
    return { data: page.data.map(retainedSummary), meta: q.topic === undefined ? { ...meta, count } : meta }
  })

  app.delete('/mqtt/retainer/messages', async (_request, reply) => {
    retainer.clear()
    return reply.status(204).send()
  })

  app.get<{ Params: { topic: string } }>('/mqtt/retainer/message/:topic', async (request): Promise<RetainedMessage> => {
    const message = findOne(request.params.topic)
    if (!message) throw notFound()
    return {
      ...retainedSummary(message),
      ...(message.payload.length <= MAX_PAYLOAD_SIZE ? { payload: message.payload.toString('base64') } : {}),
    }
  })

  app.delete<{ Params: { topic: string } }>('/mqtt/retainer/message/:topic', async (request, reply) => {
    const message = findOne(request.params.topic)
    if (!message) throw notFound()
    retainer.delete(message.topic)
    return reply.status(204).send()
  })

  /** EMQX looks the path's topic up as a filter and takes the first match. */
  function findOne(topic: string): Message | undefined {
    return retainer.get(topic) ?? (isValidFilter(topic) ? retainer.list(topic)[0] : undefined)
  }
}
