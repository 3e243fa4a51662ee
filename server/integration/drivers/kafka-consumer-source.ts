// The Kafka consumer source's `parameters` (emqx_bridge_kafka_consumer_schema:source_parameters,
// 5.8.9) checked, and a consumed Kafka message made into the row the rules see, as
// emqx_bridge_kafka_impl_consumer's do_handle_message builds it: headers, key, offset, topic, ts,
// ts_type and value, key and value as text or base64.
import type { KafkaMessage } from 'kafkajs'
import { KAFKA_SOURCE_DEFAULTS } from '../../../contract/connectors.ts'
import { byteSize, durationMs, integer, oneOf, optionalText, requiredText, secondsMs } from './config-fields.ts'

type Encoding = 'none' | 'base64'

export interface KafkaSourceSettings {
  topic: string
  groupId: string
  maxBytes: number
  maxWaitMs: number
  fromBeginning: boolean
  commitIntervalMs: number
  keyEncoding: Encoding
  valueEncoding: Encoding
}

/** consumer_group_id: the one given, or `emqx-kafka-consumer-<source name>` (the same on every node). */
export function consumerGroupId(groupId: string | undefined, sourceName: string): string {
  return groupId ? groupId : `emqx-kafka-consumer-${sourceName}`
}

/** The source's parameters with defaults, checked; throws the 400's reason. */
export function kafkaSourceSettings(parameters: Record<string, unknown>, sourceName: string): KafkaSourceSettings {
  const p: Record<string, unknown> = { ...KAFKA_SOURCE_DEFAULTS, ...parameters }
  if (!Array.isArray(p.topic_mapping)) throw new Error('parameters.topic_mapping: must be a list')
  if (p.topic_mapping.length > 0) {
    throw new Error('parameters.topic_mapping: the bridge v1 Kafka-to-MQTT mapping is not supported by this server; select from the source in a rule and republish')
  }
  integer('parameters.max_rejoin_attempts', p.max_rejoin_attempts, 0)
  const encoding = (field: string) => oneOf(`parameters.${field}`, p[field], ['none', 'base64'] as const)
  return {
    topic: requiredText('parameters.topic', p.topic),
    groupId: consumerGroupId(optionalText('parameters.group_id', p.group_id), sourceName),
    maxBytes: byteSize('parameters.max_batch_bytes', p.max_batch_bytes),
    maxWaitMs: durationMs('parameters.max_wait_time', p.max_wait_time),
    fromBeginning: oneOf('parameters.offset_reset_policy', p.offset_reset_policy, ['latest', 'earliest'] as const) === 'earliest',
    commitIntervalMs: secondsMs('parameters.offset_commit_interval_seconds', p.offset_commit_interval_seconds),
    keyEncoding: encoding('key_encoding_mode'),
    valueEncoding: encoding('value_encoding_mode'),
  }
}

function encode(value: Buffer | null, encoding: Encoding): string {
  if (value === null) return ''
  return encoding === 'base64' ? value.toString('base64') : value.toString('utf8')
}

/** The row a consumed message gives the rules (`$sources/kafka_consumer:<name>`). */
export function kafkaSourceRow(topic: string, message: KafkaMessage, settings: Pick<KafkaSourceSettings, 'keyEncoding' | 'valueEncoding'>): Record<string, unknown> {
  const headers: Record<string, string | string[]> = {}
  for (const [key, value] of Object.entries(message.headers ?? {})) {
    if (value === undefined) continue
    headers[key] = Array.isArray(value) ? value.map((v) => v.toString()) : value.toString()
  }
  return {
    headers,
    key: encode(message.key, settings.keyEncoding),
    offset: Number(message.offset),
    topic,
    ts: Number(message.timestamp),
    // kafkajs keeps a record batch's timestamp type to itself; a producer's own time is the common case.
    ts_type: 'create',
    value: encode(message.value, settings.valueEncoding),
  }
}
