// Kafka (EMQX 5.8.9 emqx_bridge_kafka) through kafkajs: the `kafka_producer` connector and action
// (rows rendered into Kafka records: topic, key, value, timestamp, headers; partition strategy,
// required acks, gzip) and the `kafka_consumer` connector and source (a consumer group whose
// messages reach the rules as `$sources/kafka_consumer:<name>`). A broker that cannot be reached
// or does not speak Kafka fails the start and the health check with kafkajs' reason.
import type { EachMessagePayload } from 'kafkajs'
import { RecoverableError, UnrecoverableError, type ActionDriver, type ConnectorDriver, type DriverContext, type SourceDriver } from '../driver.ts'
import { Tuple } from '../../rules/events/erlang-term.ts'
import { within } from './backend.ts'
import { closeKafka, kafkaHealth, kafkaReason, openKafka, producerFor, topicHealth, type KafkaConnection } from './kafka-client.ts'
import { kafkaConnectorSettings } from './kafka-config.ts'
import { kafkaSourceRow, kafkaSourceSettings, type KafkaSourceSettings } from './kafka-consumer-source.ts'
import { prepareKafkaProducer, renderKafkaRecord, type KafkaProducerPrepared, type KafkaRecord } from './kafka-producer-message.ts'

const nameOf = (id: string): string => id.slice(id.indexOf(':') + 1)

function connectorDriver(type: 'kafka_producer' | 'kafka_consumer', clientId: (ctx: DriverContext) => string): ConnectorDriver<KafkaConnection> & { check(config: Record<string, unknown>): void } {
  return {
    type,
    check: (config) => void kafkaConnectorSettings(config),
    start: (config, ctx) => openKafka(config, clientId(ctx)),
    health: kafkaHealth,
    stop: closeKafka,
  }
}

/** The producer's client id is its connector's resource id, as wolff's is in EMQX. */
export const kafkaProducerConnector = connectorDriver('kafka_producer', (ctx) => `connector:${ctx.id}`)
/** The consumer's is `<type>:<name>:<node>` (emqx_bridge_kafka_impl:make_client_id). */
export const kafkaConsumerConnector = connectorDriver('kafka_consumer', (ctx) => `${ctx.id}:${ctx.node}`)

/** A kafkajs failure: what Kafka calls retriable (a lost connection, a leader moving, a timeout) is retried. */
function classified(error: unknown): Error {
  if (error instanceof RecoverableError || error instanceof UnrecoverableError) return error
  const type = (error as { type?: unknown }).type
  if (type === 'UNKNOWN_TOPIC_OR_PARTITION') return new UnrecoverableError(`resolved_to_unknown_topic: ${kafkaReason(error)}`)
  const retriable = (error as { retriable?: unknown }).retriable === true || (error as { name?: unknown }).name === 'KafkaJSConnectionError'
  return retriable ? new RecoverableError(kafkaReason(error)) : new UnrecoverableError(kafkaReason(error))
}

/** formalize_kafka_headers: the headers as a list of `{Key, Value}`. */
function kafkaHeaders(headers: KafkaRecord['headers']): Tuple[] {
  return Object.entries(headers).flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((one) => new Tuple([key, Buffer.isBuffer(one) ? one.toString('utf8') : String(one)])))
}

function byTopic(records: readonly KafkaRecord[]): Array<{ topic: string; messages: Array<Omit<KafkaRecord, 'topic'>> }> {
  const topics = new Map<string, Array<Omit<KafkaRecord, 'topic'>>>()
  for (const { topic, ...message } of records) {
    const list = topics.get(topic)
    if (list) list.push(message)
    else topics.set(topic, [message])
  }
  return [...topics].map(([topic, messages]) => ({ topic, messages }))
}

export const kafkaProducerAction: ActionDriver<KafkaConnection, KafkaProducerPrepared> = {
  type: 'kafka_producer',
  connectorType: 'kafka_producer',
  rendersInCaller: true,
  prepare: (parameters) => prepareKafkaProducer(parameters),
  async send(conn, prepared, batch, { timeoutMs, signal, trace }) {
    const records = batch.map((row) => renderKafkaRecord(prepared, row))
    // 5.8 renders one query at a time: a line a message, its key, value, headers and timestamp.
    if (trace) for (const { key, value, headers, timestamp } of records) trace.rendered({ message: { key, value, headers: kafkaHeaders(headers), ts: Number(timestamp) } })
    try {
      const producer = await within(producerFor(conn, prepared), timeoutMs, signal)
      await within(producer.sendBatch({ topicMessages: byTopic(records), acks: prepared.acks, compression: prepared.compression, timeout: timeoutMs }), timeoutMs, signal)
    } catch (error) {
      throw classified(error)
    }
  },
  // A fixed topic must exist (on_get_channel_status); a dynamic one is known only per row.
  health: async (conn, prepared) => (typeof prepared.topic === 'string' ? topicHealth(conn, prepared.topic) : { status: 'connected' }),
}

async function consume(conn: KafkaConnection, settings: KafkaSourceSettings, deliver: (row: Record<string, unknown>) => void): Promise<() => Promise<void>> {
  // brod keeps one consumer a topic per client: EMQX refuses a second source on the same topic.
  if (conn.consumedTopics.has(settings.topic)) {
    throw new Error(`Topics ${settings.topic} already exist in other sources associated with this connector. If you want to repeat topics, create new connector and source(s).`)
  }
  const consumer = conn.kafka.consumer({
    groupId: settings.groupId,
    maxBytes: settings.maxBytes,
    maxWaitTimeInMs: settings.maxWaitMs,
    allowAutoTopicCreation: false,
    retry: { retries: 0 },
  })
  conn.consumedTopics.add(settings.topic)
  conn.consumers.add(consumer)
  const stop = async () => {
    conn.consumedTopics.delete(settings.topic)
    conn.consumers.delete(consumer)
    await consumer.disconnect().catch(() => undefined)
  }
  try {
    await consumer.connect()
    await consumer.subscribe({ topics: [settings.topic], fromBeginning: settings.fromBeginning })
    await consumer.run({
      autoCommitInterval: settings.commitIntervalMs,
      eachMessage: async ({ topic, message }: EachMessagePayload) => deliver(kafkaSourceRow(topic, message, settings)),
    })
  } catch (error) {
    await stop()
    throw new Error(kafkaReason(error))
  }
  return stop
}

export const kafkaConsumerSource: SourceDriver<KafkaConnection> & { prepare(parameters: Record<string, unknown>, ctx: DriverContext): KafkaSourceSettings } = {
  type: 'kafka_consumer',
  connectorType: 'kafka_consumer',
  prepare: (parameters, ctx) => kafkaSourceSettings(parameters, nameOf(ctx.id)),
  subscribe: (conn, parameters, deliver, ctx) => consume(conn, kafkaSourceSettings(parameters, nameOf(ctx.id)), deliver),
}
