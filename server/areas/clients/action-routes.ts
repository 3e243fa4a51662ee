// /clients/{clientid}/subscribe[/bulk], /clients/{clientid}/unsubscribe[/bulk]: subscribe a client
// as if it had sent SUBSCRIBE / UNSUBSCRIBE; /clients/{clientid}/mqueue_messages and
// /inflight_messages: what the session holds for the client, by cursor.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { CLIENTID_NOT_FOUND, INVALID_POSITION, type ClientMessage, type ClientMessagePage } from '../../../contract/clients.ts'
import type { Broker } from '../../broker/broker.ts'
import { parseSize } from '../../broker/units.ts'
import type { Delivery, Session } from '../../broker/session.ts'
import { isValidFilter, parseShare } from '../../broker/topic-trie.ts'
import { ApiError, badRequest, contractError, parseInput } from '../../http/errors.ts'
import { integerText, MAX_LIMIT } from '../../http/paging.ts'

const clientNotFound = () => contractError(CLIENTID_NOT_FOUND)

const flag = v.optional(v.picklist([0, 1], 'must be 0 or 1'), 0)
const SubscribeBody = v.object({
  topic: v.pipe(v.string('is required'), v.minLength(1, 'is required')),
  qos: v.optional(v.picklist([0, 1, 2], 'must be 0, 1 or 2'), 0),
  nl: flag,
  rap: flag,
  rh: v.optional(v.picklist([0, 1, 2], 'must be 0, 1 or 2'), 0),
})
const UnsubscribeBody = v.object({ topic: v.pipe(v.string('is required'), v.minLength(1, 'is required')) })

/** `none`, `{key}` (inflight) or `{key}_{priority}` (mqueue). */
const POSITION = /^(none|\d+(_(\d+|infinity))?)$/

const insertionKeys = new WeakMap<Delivery, number>()
let lastKey = 0

function insertionKey(delivery: Delivery): number {
  let key = insertionKeys.get(delivery)
  if (key === undefined) {
    key = lastKey = Math.max(delivery.message.timestamp * 1000, lastKey + 1)
    insertionKeys.set(delivery, key)
  }
  return key
}

const MessagesQuery = v.object({
  limit: v.optional(v.pipe(integerText, v.minValue(1, 'must be at least 1'), v.maxValue(MAX_LIMIT, `must be at most ${MAX_LIMIT}`)), '100'),
  position: v.optional(v.pipe(v.string(), v.regex(POSITION, 'position_limit_invalid'))),
  payload: v.optional(v.picklist(['base64', 'plain', 'none'], 'must be base64, plain or none'), 'base64'),
  max_payload_bytes: v.optional(
    v.pipe(
      v.string(),
      v.transform((text) => parseSize(text) ?? -1),
      v.minValue(1, 'must be higher than 0'),
    ),
    '1MB',
  ),
})

type ClientParams = { Params: { clientid: string } }

export async function clientActionRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  const { broker } = deps

  function sessionOf(clientid: string): Session {
    const session = broker.getSession(clientid)
    if (!session) throw clientNotFound()
    return session
  }

  /** Refuses what the broker would refuse anyway, before anything is subscribed (a bulk request is all or nothing). */
  function precheck(input: v.InferOutput<typeof SubscribeBody>): void {
    const parsed = parseShare(input.topic)
    if (!parsed || !isValidFilter(parsed.filter)) throw badRequest(`topic_filter_invalid: ${input.topic}`)
    if (input.nl === 1 && parsed.group !== undefined) {
      throw new ApiError(400, 'INVALID_PARAMETER', 'Invalid Subscribe options: `no_local` not allowed for shared-sub. See [MQTT-3.8.3-4]')
    }
  }

  function subscribe(session: Session, input: v.InferOutput<typeof SubscribeBody>) {
    const subscription = { topic: input.topic, qos: input.qos, nl: input.nl === 1, rap: input.rap === 1, rh: input.rh }
    const result = broker.subscribe(session, subscription, undefined)
    if (!result.options) throw badRequest(`subscribe to ${input.topic} failed with reason code 0x${result.code.toString(16)}`)
    broker.deliverRetained(session, subscription.topic, result.options, result.isNew)
    // EMQX answers with the options as asked (a lower QoS granted under max_qos_allowed shows in the subscription).
    return { clientid: session.clientid, node: broker.node, topic: input.topic, qos: input.qos, nl: input.nl, rap: input.rap, rh: input.rh }
  }

  app.post<ClientParams>('/clients/:clientid/subscribe', async (request) => {
    const session = sessionOf(request.params.clientid)
    const input = parseInput(SubscribeBody, request.body, 'body')
    precheck(input)
    return subscribe(session, input)
  })

  app.post<ClientParams>('/clients/:clientid/subscribe/bulk', async (request) => {
    const session = sessionOf(request.params.clientid)
    const inputs = parseInput(v.array(SubscribeBody), request.body, 'body')
    inputs.forEach(precheck)
    return inputs.map((input) => subscribe(session, input))
  })

  app.post<ClientParams>('/clients/:clientid/unsubscribe', async (request, reply) => {
    const session = sessionOf(request.params.clientid)
    broker.unsubscribe(session, parseInput(UnsubscribeBody, request.body, 'body').topic)
    return reply.status(204).send()
  })

  app.post<ClientParams>('/clients/:clientid/unsubscribe/bulk', async (request, reply) => {
    const session = sessionOf(request.params.clientid)
    for (const { topic } of parseInput(v.array(UnsubscribeBody), request.body, 'body')) broker.unsubscribe(session, topic)
    return reply.status(204).send()
  })

  /**
   * A page of messages after `position`. Each queued (or inflight) delivery gets an insertion key
   * the first time it is listed: microseconds like EMQX's insert timestamps, unique and rising, so
   * a cursor still points at the right place after the queue's head moved on.
   */
  function messagesPage(deliveries: readonly Delivery[], rawQuery: unknown, kind: 'mqueue' | 'inflight'): ClientMessagePage {
    const raw = (rawQuery ?? {}) as Record<string, unknown>
    if (raw.position !== undefined && !POSITION.test(String(raw.position))) {
      throw contractError(INVALID_POSITION)
    }
    const q = parseInput(MessagesQuery, rawQuery, 'query')
    const keyed = deliveries.map((delivery) => ({ delivery, key: insertionKey(delivery) }))
    const encode = (entry: { delivery: Delivery; key: number }) =>
      kind === 'mqueue' ? `${entry.key}_${entry.delivery.priority ?? 'infinity'}` : String(entry.key)
    const after = q.position === undefined || q.position === 'none' ? -1 : Number(q.position.split('_')[0])
    const rest = keyed.filter((entry) => entry.key > after)
    const slice = rest.slice(0, q.limit)
    const data: ClientMessage[] = []
    let bytes = 0
    for (const [i, { delivery, key }] of slice.entries()) {
      const message = delivery.message
      const payload =
        q.payload === 'none' ? undefined : q.payload === 'base64' ? message.payload.toString('base64') : message.payload.toString('utf8')
      bytes += payload === undefined ? 0 : Buffer.byteLength(payload)
      // The first message always comes; later ones only while the payloads stay under the limit.
      if (i > 0 && bytes > q.max_payload_bytes) break
      data.push({
        msgid: message.id,
        topic: message.topic,
        qos: delivery.qos,
        publish_at: message.timestamp,
        from_clientid: message.from,
        from_username: message.fromUsername ?? '',
        inserted_at: String(key),
        ...(kind === 'mqueue' ? { mqueue_priority: delivery.priority ?? 0 } : {}),
        ...(payload !== undefined ? { payload } : {}),
      })
    }
    const last = rest[data.length - 1]
    return {
      data,
      meta: {
        limit: q.limit,
        start: keyed.length > 0 ? encode(keyed[0]) : 'none',
        position: last && data.length < rest.length ? encode(last) : 'none',
      },
    }
  }

  app.get<ClientParams>('/clients/:clientid/mqueue_messages', async (request) => {
    const session = sessionOf(request.params.clientid)
    return messagesPage(session.mqueue, request.query, 'mqueue')
  })

  app.get<ClientParams>('/clients/:clientid/inflight_messages', async (request) => {
    const session = sessionOf(request.params.clientid)
    return messagesPage(
      [...session.inflight.values()].map((entry) => entry.delivery),
      request.query,
      'inflight',
    )
  })
}
