// A Kafka connector's connection (kafkajs, pure JavaScript): one client for the bootstrap hosts, an
// admin connection for the health checks (a metadata round trip, or the health check topic's
// metadata), and the producers its actions send through, one per partitioning setup.
import { Kafka, logLevel, type Admin, type ICustomPartitioner, type PartitionerArgs, type Producer } from 'kafkajs'
import type { ResourceHealth } from '../driver.ts'
import { phash2Binary } from './erlang-phash2.ts'
import { kafkaConnectorSettings, kafkaSocketFactory, type KafkaConnectorSettings } from './kafka-config.ts'
import type { KafkaProducerPrepared } from './kafka-producer-message.ts'

/** EMQX's probe topic (emqx_bridge_kafka_impl_producer ?PROBE_TOPIC_NAME): an unknown one still proves metadata answers. */
export const KAFKA_PROBE_TOPIC = 'emqx-connector-connectivity-probe'

export interface KafkaConnection {
  settings: KafkaConnectorSettings
  kafka: Kafka
  admin: Admin
  producers: Map<string, Promise<Producer>>
  /** The topics the sources on this connector consume (one consumer a topic per connector, as EMQX's brod). */
  consumedTopics: Set<string>
  /** The consumers the sources started, stopped with the connection. */
  consumers: Set<{ disconnect(): Promise<void> }>
}

/** A kafkajs error's words: its own message, with the cause it wraps when that says more. */
export function kafkaReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as { originalError?: unknown; cause?: unknown }).originalError ?? (error as { cause?: unknown }).cause
  const own = error.message || error.name
  return cause instanceof Error && cause.message && !own.includes(cause.message) ? `${own}: ${cause.message}` : own
}

/** Opens the client and its admin connection; throws the reason it could not connect. */
export async function openKafka(config: Record<string, unknown>, clientId: string): Promise<KafkaConnection> {
  const settings = kafkaConnectorSettings(config)
  const kafka = new Kafka({
    clientId,
    brokers: settings.brokers,
    sasl: settings.sasl,
    // TLS is opened by the socket factory, which knows Kafka's per-broker SNI; kafkajs only needs to know it is on.
    ssl: settings.tls !== undefined,
    socketFactory: kafkaSocketFactory(settings),
    connectionTimeout: settings.connectTimeoutMs,
    requestTimeout: settings.requestTimeoutMs,
    enforceRequestTimeout: true,
    // The resource layer retries on its own interval: a call fails once, with its reason.
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  })
  const admin = kafka.admin({ retry: { retries: 0 } })
  const conn: KafkaConnection = { settings, kafka, admin, producers: new Map(), consumedTopics: new Set(), consumers: new Set() }
  try {
    await admin.connect()
    const health = await kafkaHealth(conn)
    if (health.status !== 'connected') throw new Error(health.reason)
  } catch (error) {
    await admin.disconnect().catch(() => undefined)
    throw new Error(kafkaReason(error))
  }
  return conn
}

/** A metadata round trip; with health_check_topic set, that topic must exist. */
export async function kafkaHealth(conn: KafkaConnection): Promise<ResourceHealth> {
  const topic = conn.settings.healthCheckTopic
  try {
    if (topic) await conn.admin.fetchTopicMetadata({ topics: [topic] })
    else await conn.admin.describeCluster()
    return { status: 'connected' }
  } catch (error) {
    if ((error as { type?: unknown }).type === 'UNKNOWN_TOPIC_OR_PARTITION' && topic) return { status: 'connecting', reason: `Unknown topic or partition: ${topic}` }
    return { status: 'disconnected', reason: kafkaReason(error) }
  }
}

/** Whether a topic exists (an action's own health: EMQX's assert_topic_and_leader_connections). */
export async function topicHealth(conn: KafkaConnection, topic: string): Promise<ResourceHealth> {
  try {
    await conn.admin.fetchTopicMetadata({ topics: [topic] })
    return { status: 'connected' }
  } catch (error) {
    if ((error as { type?: unknown }).type === 'UNKNOWN_TOPIC_OR_PARTITION') return { status: 'connecting', reason: `Unknown topic or partition: ${topic}` }
    return { status: 'connecting', reason: kafkaReason(error) }
  }
}

export async function closeKafka(conn: KafkaConnection): Promise<void> {
  const producers = [...conn.producers.values()]
  conn.producers.clear()
  await Promise.all([
    ...producers.map((p) => p.then((producer) => producer.disconnect()).catch(() => undefined)),
    ...[...conn.consumers].map((consumer) => consumer.disconnect().catch(() => undefined)),
    conn.admin.disconnect().catch(() => undefined),
  ])
  conn.consumers.clear()
  conn.consumedTopics.clear()
}

/** The partitions a record may go to: all, or the first `limit` of them (partitions_limit). */
function limited(args: PartitionerArgs, limit: number | undefined): PartitionerArgs {
  if (limit === undefined || args.partitionMetadata.length <= limit) return args
  const partitionMetadata = [...args.partitionMetadata].sort((a, b) => a.partitionId - b.partitionId).slice(0, limit)
  return { ...args, partitionMetadata }
}

/**
 * partition_strategy: `random` picks any partition; `key_dispatch` picks partition
 * `erlang:phash2(Key) rem Count` of the partitions in order, as wolff does, so a key lands on the
 * partition number EMQX would send it to.
 */
export function kafkaPartitioner(strategy: KafkaProducerPrepared['strategy'], limit: number | undefined): ICustomPartitioner {
  return () => (args) => {
    const all = limited(args, limit).partitionMetadata
    if (strategy === 'key_dispatch') {
      const ids = all.map((partition) => partition.partitionId).sort((a, b) => a - b)
      const key = args.message.key
      return ids[phash2Binary(Buffer.isBuffer(key) ? key : Buffer.from(key ?? '')) % ids.length]
    }
    return all[Math.floor(Math.random() * all.length)].partitionId
  }
}

/** The producer for an action's partitioning and inflight settings, connected once and shared. */
export function producerFor(conn: KafkaConnection, prepared: KafkaProducerPrepared): Promise<Producer> {
  const key = `${prepared.strategy}:${prepared.partitionsLimit ?? 'all'}:${prepared.maxInflight}:${prepared.partitionCountRefreshMs}`
  let producer = conn.producers.get(key)
  if (!producer) {
    const created = conn.kafka.producer({
      createPartitioner: kafkaPartitioner(prepared.strategy, prepared.partitionsLimit),
      maxInFlightRequests: prepared.maxInflight,
      metadataMaxAge: prepared.partitionCountRefreshMs,
      allowAutoTopicCreation: false,
      retry: { retries: 0 },
    })
    producer = created.connect().then(() => created)
    // A producer that could not connect is forgotten, so the next send tries again.
    producer.catch(() => conn.producers.delete(key))
    conn.producers.set(key, producer)
  }
  return producer
}
