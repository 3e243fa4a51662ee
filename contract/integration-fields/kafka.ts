// Kafka: the producer connector and action, the consumer connector and source
// (emqx_bridge_kafka, emqx_bridge_kafka_consumer_schema 5.8.9).
import { DESCRIPTION, LOCAL_TOPIC, TLS } from './common.ts'
import { when, type IntegrationField, type TypeCatalogue } from './field.ts'

const sasl = when('authentication.mechanism', 'plain', 'scram_sha_256', 'scram_sha_512')

/** Both connectors' fields. `authentication` is `none` or `{mechanism, username, password}` (Kerberos kept as JSON). */
const connector: IntegrationField[] = [
  DESCRIPTION,
  { path: 'bootstrap_hosts', kind: 'string', required: true, help: 'integrationFields.help.bootstrapHosts' },
  { path: 'authentication.mechanism', kind: 'enum', options: ['none', 'plain', 'scram_sha_256', 'scram_sha_512'], default: 'none' },
  { path: 'authentication.username', kind: 'string', required: true, when: sasl },
  { path: 'authentication.password', kind: 'secret', required: true, when: sasl },
  { path: 'connect_timeout', kind: 'duration', advanced: true },
  { path: 'min_metadata_refresh_interval', kind: 'duration', advanced: true },
  { path: 'metadata_request_timeout', kind: 'duration', advanced: true },
  { path: 'health_check_topic', kind: 'string', advanced: true },
  { path: 'socket_opts', kind: 'json', advanced: true },
  TLS,
]

/** `authentication` is the word `none` in the config and a mechanism in the form. */
const authentication = {
  read(config: Record<string, unknown>): Record<string, unknown> {
    return config.authentication === 'none' ? { ...config, authentication: { mechanism: 'none' } } : config
  },
  write(config: Record<string, unknown>): Record<string, unknown> {
    const auth = config.authentication as { mechanism?: unknown } | undefined
    return auth && typeof auth === 'object' && auth.mechanism === 'none' ? { ...config, authentication: 'none' } : config
  },
}

export const kafka_producer: TypeCatalogue = {
  connector,
  connectorAdapter: authentication,
  action: [
    DESCRIPTION,
    { path: 'parameters.topic', kind: 'template', required: true },
    { path: 'parameters.message.key', kind: 'template' },
    { path: 'parameters.message.value', kind: 'template' },
    { path: 'parameters.message.timestamp', kind: 'template', advanced: true },
    { path: 'parameters.partition_strategy', kind: 'enum', options: ['random', 'key_dispatch'] },
    { path: 'parameters.compression', kind: 'enum', options: ['no_compression', 'snappy', 'gzip'] },
    { path: 'parameters.required_acks', kind: 'enum', options: ['all_isr', 'leader_only', 'none'] },
    { path: 'parameters.kafka_headers', kind: 'template', advanced: true },
    { path: 'parameters.kafka_ext_headers', kind: 'json', advanced: true },
    { path: 'parameters.kafka_header_value_encode_mode', kind: 'enum', options: ['none', 'json'], advanced: true },
    { path: 'parameters.max_linger_time', kind: 'duration', advanced: true },
    { path: 'parameters.max_linger_bytes', kind: 'bytesize', advanced: true },
    { path: 'parameters.max_batch_bytes', kind: 'bytesize', advanced: true },
    { path: 'parameters.partition_count_refresh_interval', kind: 'duration', advanced: true },
    { path: 'parameters.max_inflight', kind: 'number', min: 1, advanced: true },
    { path: 'parameters.query_mode', kind: 'enum', options: ['async', 'sync'], advanced: true },
    { path: 'parameters.sync_query_timeout', kind: 'duration', advanced: true },
    { path: 'parameters.buffer.mode', kind: 'enum', options: ['memory', 'disk', 'hybrid'], advanced: true, label: 'integrationFields.field.bufferMode' },
    { path: 'parameters.buffer.per_partition_limit', kind: 'bytesize', advanced: true },
    { path: 'parameters.buffer.segment_bytes', kind: 'bytesize', advanced: true },
    { path: 'parameters.buffer.memory_overload_protection', kind: 'boolean', advanced: true },
    LOCAL_TOPIC,
  ],
}

export const kafka_consumer: TypeCatalogue = {
  connector,
  connectorAdapter: authentication,
  source: [
    DESCRIPTION,
    { path: 'parameters.topic', kind: 'string', required: true },
    { path: 'parameters.group_id', kind: 'string' },
    { path: 'parameters.offset_reset_policy', kind: 'enum', options: ['latest', 'earliest'] },
    { path: 'parameters.key_encoding_mode', kind: 'enum', options: ['none', 'base64'], advanced: true },
    { path: 'parameters.value_encoding_mode', kind: 'enum', options: ['none', 'base64'], advanced: true },
    { path: 'parameters.max_batch_bytes', kind: 'bytesize', advanced: true },
    { path: 'parameters.max_wait_time', kind: 'duration', advanced: true },
    { path: 'parameters.offset_commit_interval_seconds', kind: 'duration', advanced: true },
  ],
}
