// POST /publish and POST /publish/bulk: publish messages as the broker, like EMQX's HTTP API.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { Broker } from '../broker/broker.ts'
import { createMessage, type PublishProperties } from '../broker/message.ts'
import { isValidTopicName } from '../broker/topic-trie.ts'
import { badRequest, parseInput } from './errors.ts'

const RC_NO_MATCHING_SUBSCRIBERS = 16
const uint32 = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4294967295))

const PublishBody = v.object({
  topic: v.pipe(v.string('is required'), v.minLength(1, 'is required')),
  clientid: v.optional(v.string()),
  payload: v.optional(v.string(), ''),
  payload_encoding: v.optional(v.picklist(['plain', 'base64'], 'must be plain or base64'), 'plain'),
  qos: v.optional(v.picklist([0, 1, 2], 'must be 0, 1 or 2'), 0),
  retain: v.optional(v.boolean(), false),
  properties: v.optional(
    v.object({
      payload_format_indicator: v.optional(v.picklist([0, 1], 'must be 0 or 1')),
      message_expiry_interval: v.optional(uint32),
      response_topic: v.optional(v.string()),
      correlation_data: v.optional(v.string()),
      user_properties: v.optional(v.record(v.string(), v.string())),
      content_type: v.optional(v.string()),
    }),
  ),
})

type PublishInput = v.InferOutput<typeof PublishBody>

function toProperties(input: PublishInput['properties']): PublishProperties | undefined {
  if (!input) return undefined
  const properties: PublishProperties = {}
  if (input.payload_format_indicator !== undefined) properties.payloadFormatIndicator = input.payload_format_indicator === 1
  if (input.message_expiry_interval !== undefined) properties.messageExpiryInterval = input.message_expiry_interval
  if (input.response_topic !== undefined) properties.responseTopic = input.response_topic
  if (input.correlation_data !== undefined) properties.correlationData = Buffer.from(input.correlation_data)
  if (input.user_properties !== undefined) properties.userProperties = input.user_properties
  if (input.content_type !== undefined) properties.contentType = input.content_type
  return Object.keys(properties).length > 0 ? properties : undefined
}

/** Validates one body; a topic with wildcards (or otherwise invalid) is a bad request, as in EMQX. */
function checked(input: PublishInput) {
  if (!isValidTopicName(input.topic)) throw badRequest(`topic_name_invalid: ${input.topic}`)
  if (input.payload_encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(input.payload)) throw badRequest('payload: invalid base64')
  return input
}

/** Publishes; the HTTP status and body EMQX answers for the result. */
function publish(broker: Broker, input: PublishInput): { status: number; body: object } {
  const message = createMessage({
    topic: input.topic,
    payload: Buffer.from(input.payload, input.payload_encoding === 'base64' ? 'base64' : 'utf8'),
    qos: input.qos,
    retain: input.retain,
    from: input.clientid ?? 'http_api',
    properties: toProperties(input.properties),
  })
  const matched = broker.publish(message)
  if (matched <= 0) return { status: 202, body: { reason_code: RC_NO_MATCHING_SUBSCRIBERS, message: 'no_matching_subscribers' } }
  return { status: 200, body: { id: message.id } }
}

export async function publishRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  app.post('/publish', async (request, reply) => {
    const input = checked(parseInput(PublishBody, request.body, 'body'))
    const result = publish(deps.broker, input)
    return reply.status(result.status).send(result.body)
  })

  app.post('/publish/bulk', async (request, reply) => {
    // Every message is checked before any goes out, so a bad one publishes nothing.
    const inputs = parseInput(v.array(PublishBody), request.body, 'body').map(checked)
    const results = inputs.map((input) => publish(deps.broker, input))
    const allDelivered = results.every((result) => result.status === 200)
    return reply.status(allDelivered ? 200 : 202).send(results.map((result) => result.body))
  })
}
