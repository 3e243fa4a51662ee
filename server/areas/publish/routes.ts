// POST /publish and POST /publish/bulk: publish messages as the broker, like EMQX's HTTP API.
import type { FastifyInstance } from 'fastify'
import type { Broker } from '../../broker/broker.ts'
import { createMessage, type PublishProperties } from '../../broker/message.ts'
import { isValidTopicName } from '../../broker/topic-trie.ts'
import { parseInput } from '../../http/errors.ts'
import { PUBLISH_REASON_CODES, PublishBody, PublishBulkBody, type PublishInput } from '../../../contract/publish.ts'

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

/**
 * A message EMQX refuses after reading the body: 400 with the MQTT reason code beside our
 * `{code, message}` (EMQX answers `{reason_code, message}` here, e.g. 144 `topic_name_invalid`).
 */
class Refused extends Error {
  readonly reasonCode: number

  constructor(reasonCode: number, message: string) {
    super(message)
    this.reasonCode = reasonCode
  }

  get body() {
    return { code: 'BAD_REQUEST', reason_code: this.reasonCode, message: this.message }
  }
}

const RC = PUBLISH_REASON_CODES

interface Checked {
  input: PublishInput
  payload: Buffer
}

/** Checks one body as EMQX does: a valid topic name (no wildcards), a decodable payload, under max_packet_size. */
function checked(broker: Broker, input: PublishInput): Checked {
  if (!isValidTopicName(input.topic)) throw new Refused(RC.topicNameInvalid, 'topic_name_invalid')
  if (input.payload_encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(input.payload)) {
    throw new Refused(RC.implementationSpecificError, 'decode_base64_payload_failed')
  }
  const payload = Buffer.from(input.payload, input.payload_encoding === 'base64' ? 'base64' : 'utf8')
  if (payload.length + Buffer.byteLength(input.topic) > broker.options.maxPacketSize) throw new Refused(RC.quotaExceeded, 'packet_too_large')
  return { input, payload }
}

/** Publishes; the HTTP status and body EMQX answers for the result. */
function publish(broker: Broker, { input, payload }: Checked): { status: number; body: object } {
  const message = createMessage({
    topic: input.topic,
    payload,
    qos: input.qos,
    retain: input.retain,
    from: input.clientid ?? 'http_api',
    properties: toProperties(input.properties),
  })
  const matched = broker.publish(message)
  // A delayed message has no subscribers yet: EMQX answers 200 for it.
  if (matched > 0 || input.topic.startsWith('$delayed/')) return { status: 200, body: { id: message.id } }
  return { status: 202, body: { reason_code: RC.noMatchingSubscribers, message: 'no_matching_subscribers' } }
}

export async function publishRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  const { broker } = deps

  app.post('/publish', async (request, reply) => {
    const input = parseInput(PublishBody, request.body, 'body')
    try {
      const result = publish(broker, checked(broker, input))
      return reply.status(result.status).send(result.body)
    } catch (error) {
      if (error instanceof Refused) return reply.status(400).send(error.body)
      throw error
    }
  })

  app.post('/publish/bulk', async (request, reply) => {
    const inputs = parseInput(PublishBulkBody, request.body, 'body')
    // Every message is checked before any goes out, so a bad one publishes nothing.
    let messages: Checked[]
    try {
      messages = inputs.map((input) => checked(broker, input))
    } catch (error) {
      if (error instanceof Refused) return reply.status(400).send(error.body)
      throw error
    }
    const results = messages.map((message) => publish(broker, message))
    const allDelivered = results.every((result) => result.status === 200)
    return reply.status(allDelivered ? 200 : 202).send(results.map((result) => result.body))
  })
}
