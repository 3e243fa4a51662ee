// /mqtt/delayed: settings; /mqtt/delayed/messages: list (paged);
// /mqtt/delayed/messages/{node}/{msgid}: one message with its payload, or delete it.
import type { FastifyInstance } from 'fastify'
import { delayedErrors, DelayedListQuery, type DelayedMessage as DelayedRecord, type DelayedPage } from '../../../contract/delayed.ts'
import { isValidTopicName } from '../../broker/topic-trie.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import { settingsRoute } from '../../http/settings-route.ts'
import { rfc3339 } from '../../http/time.ts'
import type { AreaDeps } from '../area.ts'
import type { DelayedFeature } from './feature.ts'
import { delayedSettings } from './settings.ts'
import type { DelayedMessage } from './store.ts'

/** EMQX shows larger delayed payloads as this marker instead. */
const MAX_PAYLOAD_LENGTH = 2048

function delayedRecord(delayed: DelayedMessage, node: string): DelayedRecord {
  const { message } = delayed
  return {
    msgid: message.id,
    node,
    publish_at: rfc3339(delayed.publishAt),
    delayed_interval: delayed.delayedInterval,
    delayed_remaining: Math.max(0, Math.trunc((delayed.expectedAt - Date.now()) / 1000)),
    expected_at: rfc3339(delayed.expectedAt),
    topic: message.topic,
    qos: message.qos,
    from_clientid: message.from,
    from_username: message.fromUsername ?? '',
  }
}

type MessageParams = { Params: { node: string; msgid: string } }

export async function delayedRoutes(app: FastifyInstance, deps: AreaDeps<DelayedFeature>): Promise<void> {
  const { feature: delayed, broker } = deps

  settingsRoute(app, '/mqtt/delayed', delayedSettings(delayed, deps.configs))

  app.get('/mqtt/delayed/messages', async (request): Promise<DelayedPage> => {
    const q = parseInput(DelayedListQuery, request.query, 'query')
    const count = delayed.count()
    const rows = delayed.repository.page((q.page - 1) * q.limit, q.limit)
    return {
      data: rows.map((row) => delayedRecord(row, broker.node)),
      meta: { page: q.page, limit: q.limit, count, hasnext: q.page * q.limit < count },
    }
  })

  /** The message the path names, or the EMQX error for a bad node, a bad id or an unknown id. */
  function lookup({ node, msgid }: MessageParams['Params']): DelayedMessage {
    if (node !== broker.node) throw contractError(delayedErrors.invalidNode, `The node name ${node} is invalid`)
    if (!/^[0-9a-fA-F]{32}$/.test(msgid)) throw contractError(delayedErrors.badMessageId, `Message ID ${msgid} schema error`)
    const found = delayed.repository.find(msgid.toLowerCase())
    if (!found) throw contractError(delayedErrors.messageIdNotFound, `Message ID ${msgid} not found`)
    return found
  }

  app.get<MessageParams>('/mqtt/delayed/messages/:node/:msgid', async (request): Promise<DelayedRecord> => {
    const found = lookup(request.params)
    const payload = found.message.payload
    return { ...delayedRecord(found, broker.node), payload: payload.length > MAX_PAYLOAD_LENGTH ? 'PAYLOAD_TOO_LARGE' : payload.toString('base64') }
  })

  app.delete<MessageParams>('/mqtt/delayed/messages/:node/:msgid', async (request, reply) => {
    const found = lookup(request.params)
    if (!delayed.delete(found.message.id)) throw contractError(delayedErrors.messageIdNotFound, `Message ID ${request.params.msgid} not found`)
    return reply.status(204).send()
  })

  app.delete<{ Params: { topic: string } }>('/mqtt/delayed/messages/:topic', async (request, reply) => {
    const { topic } = request.params
    if (!isValidTopicName(topic)) throw contractError(delayedErrors.invalidTopic, `The topic name ${topic} is invalid`)
    if (delayed.deleteByTopic(topic) === 0) throw contractError(delayedErrors.topicNotFound, `Not found messages for ${topic}`)
    return reply.status(204).send()
  })
}
