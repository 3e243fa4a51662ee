// The Kafka producer action's `parameters` (emqx_bridge_kafka:producer_kafka_opts, 5.8.9) checked
// with EMQX's messages, and a row rendered into the Kafka record EMQX's producer makes of it
// (emqx_bridge_kafka_impl_producer: render_topic, render_message, the headers): the key and value
// with a missing value as empty text, the timestamp as an integer or now, `kafka_headers` from one
// placeholder (a map, a list of {key, value}, or JSON text of either) and `kafka_ext_headers`.
import { CompressionTypes, type IHeaders } from 'kafkajs'
import { KAFKA_PRODUCER_DEFAULTS } from '../../../contract/connectors.ts'
import { lookupJsonish, parseTemplate, renderValue, singleVar, type Template } from '../../rules/engine/template.ts'
import { UnrecoverableError } from '../driver.ts'
import { byteSize, durationMs, integer, isObject, oneOf, requiredText, secondsMs } from './config-fields.ts'

const ACKS = { all_isr: -1, leader_only: 1, none: 0 } as const

export type PartitionStrategy = 'random' | 'key_dispatch'

export interface KafkaProducerPrepared {
  /** A fixed topic, or a template rendered per row. */
  topic: string | Template
  key: Template
  value: Template
  timestamp: Template
  /** `kafka_headers`: the path of its one placeholder. */
  headers: string[] | undefined
  extHeaders: ReadonlyArray<readonly [Template, Template]>
  headerEncoding: 'none' | 'json'
  acks: -1 | 0 | 1
  compression: CompressionTypes
  strategy: PartitionStrategy
  /** partitions_limit: only the first N partitions are written to; undefined is all of them. */
  partitionsLimit: number | undefined
  maxInflight: number
  partitionCountRefreshMs: number
}

/** One record for kafkajs, rendered from a row. */
export interface KafkaRecord {
  topic: string
  key: string
  value: string
  timestamp: string
  headers: IHeaders
}

/** kafka_header_validator / kafka_ext_header_value_validator, with EMQX's messages. */
function headerTemplate(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const path = typeof value === 'string' ? singleVar(parseTemplate(value)) : undefined
  if (!path) throw new Error("parameters.kafka_headers: The 'kafka_headers' must be a single placeholder like ${pub_props}")
  return path
}

function extHeaders(value: unknown): Array<readonly [Template, Template]> {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new Error('parameters.kafka_ext_headers: must be a list of {kafka_ext_header_key, kafka_ext_header_value}')
  return value.map((entry, i) => {
    const field = `parameters.kafka_ext_headers.${i + 1}`
    if (!isObject(entry)) throw new Error(`${field}: must be {kafka_ext_header_key, kafka_ext_header_value}`)
    const key = requiredText(`${field}.kafka_ext_header_key`, entry.kafka_ext_header_key)
    const raw = requiredText(`${field}.kafka_ext_header_value`, entry.kafka_ext_header_value)
    const template = parseTemplate(raw)
    if (template.length !== 1) {
      throw new Error(`${field}.kafka_ext_header_value: The value of 'kafka_ext_headers' must either be a single placeholder like \${foo}, or a simple string.`)
    }
    return [parseTemplate(key), template] as const
  })
}

/** The action's parameters with defaults, checked; throws the 400's reason. */
export function prepareKafkaProducer(parameters: Record<string, unknown>): KafkaProducerPrepared {
  const p: Record<string, unknown> = { ...KAFKA_PRODUCER_DEFAULTS, ...parameters }
  const topicText = requiredText('parameters.topic', p.topic)
  const topicTemplate = parseTemplate(topicText)
  const dynamic = topicTemplate.some((part) => typeof part !== 'string')
  const message: Record<string, unknown> = { ...KAFKA_PRODUCER_DEFAULTS.message, ...(isObject(p.message) ? p.message : {}) }
  for (const field of ['key', 'value', 'timestamp'] as const) {
    if (typeof message[field] !== 'string') throw new Error(`parameters.message.${field}: must be text`)
  }
  const strategy = oneOf('parameters.partition_strategy', p.partition_strategy, ['random', 'key_dispatch'] as const)
  if (strategy === 'key_dispatch' && message.key === '') throw new Error('parameters: Message key cannot be empty when `key_dispatch` strategy is used')
  const compression = oneOf('parameters.compression', p.compression, ['no_compression', 'snappy', 'gzip'] as const)
  if (compression === 'snappy') throw new Error('parameters.compression: snappy is not supported by this server: its Kafka client (kafkajs) compresses with gzip only; use gzip or no_compression')
  const buffer: Record<string, unknown> = { ...KAFKA_PRODUCER_DEFAULTS.buffer, ...(isObject(p.buffer) ? p.buffer : {}) }
  const mode = oneOf('parameters.buffer.mode', buffer.mode, ['memory', 'disk', 'hybrid'] as const)
  if (mode === 'disk' && dynamic) throw new Error('parameters: disk-mode buffering is disallowed when using dynamic topics')
  if (mode !== 'memory') throw new Error(`parameters.buffer.mode: ${mode} is not supported by this server: rows wait in the action's memory buffer (resource_opts.max_buffer_bytes); use memory`)
  byteSize('parameters.buffer.per_partition_limit', buffer.per_partition_limit)
  byteSize('parameters.buffer.segment_bytes', buffer.segment_bytes)
  for (const field of ['max_linger_bytes', 'max_batch_bytes'] as const) byteSize(`parameters.${field}`, p[field])
  durationMs('parameters.max_linger_time', p.max_linger_time)
  durationMs('parameters.sync_query_timeout', p.sync_query_timeout)
  oneOf('parameters.query_mode', p.query_mode, ['async', 'sync'] as const)
  const limit = p.partitions_limit
  return {
    topic: dynamic ? topicTemplate : topicText,
    key: parseTemplate(message.key as string),
    value: parseTemplate(message.value as string),
    timestamp: parseTemplate(message.timestamp as string),
    headers: headerTemplate(p.kafka_headers),
    extHeaders: extHeaders(p.kafka_ext_headers),
    headerEncoding: oneOf('parameters.kafka_header_value_encode_mode', p.kafka_header_value_encode_mode, ['none', 'json'] as const),
    acks: ACKS[oneOf('parameters.required_acks', p.required_acks, ['all_isr', 'leader_only', 'none'] as const)],
    compression: compression === 'gzip' ? CompressionTypes.GZIP : CompressionTypes.None,
    strategy,
    partitionsLimit: limit === 'all_partitions' ? undefined : integer('parameters.partitions_limit', limit, 1),
    maxInflight: integer('parameters.max_inflight', p.max_inflight, 1),
    partitionCountRefreshMs: secondsMs('parameters.partition_count_refresh_interval', p.partition_count_refresh_interval),
  }
}

/** emqx_placeholder with var_trans: a missing value is empty text, anything else its text (maps as JSON). */
function renderLoose(template: Template, row: Record<string, unknown>): string {
  let out = ''
  for (const part of template) {
    if (typeof part === 'string') out += part
    else {
      const found = lookupJsonish(part.path, row)
      if (found.found && found.value !== null) out += renderValue(found.value)
    }
  }
  return out
}

/** render_topic: a dynamic topic with a missing value cannot be sent (`failed_to_render_topic`). */
function renderTopic(topic: string | Template, row: Record<string, unknown>): string {
  if (typeof topic === 'string') return topic
  let out = ''
  for (const part of topic) {
    if (typeof part === 'string') out += part
    else {
      const found = lookupJsonish(part.path, row)
      if (!found.found) throw new UnrecoverableError('failed_to_render_topic')
      out += renderValue(found.value)
    }
  }
  return out
}

type HeaderPair = [unknown, unknown]

/** kvlist_headers: `{key, value}` maps, nested lists flattened; anything else is a bad header. */
function kvList(list: readonly unknown[]): HeaderPair[] {
  return list.flatMap((item): HeaderPair[] => {
    if (isObject(item) && 'key' in item && 'value' in item) return [[item.key, item.value]]
    if (Array.isArray(item)) return kvList(item)
    throw new UnrecoverableError(`bad_kafka_header: ${renderValue(item)}`)
  })
}

/** merge_kafka_headers: the placeholder's value as header pairs. */
function headersFrom(path: readonly string[], row: Record<string, unknown>): HeaderPair[] {
  const found = lookupJsonish(path, row)
  if (!found.found || found.value === undefined) return []
  const value = found.value
  if (isObject(value)) return Object.entries(value)
  if (Array.isArray(value)) return kvList(value)
  if (typeof value === 'string') {
    let decoded: unknown
    try {
      decoded = JSON.parse(value)
    } catch {
      throw new UnrecoverableError(`bad_kafka_headers: ${value}`)
    }
    if (isObject(decoded)) return Object.entries(decoded)
    if (Array.isArray(decoded)) return kvList(decoded)
    throw new UnrecoverableError(`bad_kafka_headers: ${value}`)
  }
  throw new UnrecoverableError(`bad_kafka_headers: ${renderValue(value)}`)
}

/** proc_ext_headers: a header whose key or value has a missing placeholder is left out. */
function extHeaderPairs(templates: KafkaProducerPrepared['extHeaders'], row: Record<string, unknown>): HeaderPair[] {
  const pairs: HeaderPair[] = []
  for (const [keyTemplate, [valuePart]] of templates) {
    let key = ''
    let missing = false
    for (const part of keyTemplate) {
      if (typeof part === 'string') key += part
      else {
        const found = lookupJsonish(part.path, row)
        if (!found.found) missing = true
        else key += renderValue(found.value)
      }
    }
    if (typeof valuePart === 'string') {
      if (!missing) pairs.push([key, valuePart])
      continue
    }
    const found = lookupJsonish(valuePart.path, row)
    if (!missing && found.found) pairs.push([key, found.value])
  }
  return pairs
}

const isKey = (key: unknown): key is string | number | boolean => typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean'

/** formalize_kafka_headers: `none` keeps text values only, `json` sends each value as JSON. */
function formalize(pairs: readonly HeaderPair[], encoding: 'none' | 'json'): IHeaders {
  const headers: IHeaders = {}
  const add = (key: string, value: string | Buffer) => {
    const before = headers[key]
    headers[key] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value]
  }
  for (const [key, value] of pairs) {
    if (encoding === 'none') {
      if (isKey(key) && (typeof value === 'string' || Buffer.isBuffer(value))) add(String(key), value)
    } else {
      const text = Buffer.isBuffer(value) ? JSON.stringify(value.toString('utf8')) : JSON.stringify(value)
      if (text !== undefined) add(String(key), text)
    }
  }
  return headers
}

/** The Kafka record a row makes; throws UnrecoverableError when it cannot be rendered. */
export function renderKafkaRecord(prepared: KafkaProducerPrepared, row: Record<string, unknown>): KafkaRecord {
  const ext = extHeaderPairs(prepared.extHeaders, row)
  const pairs = prepared.headers ? [...headersFrom(prepared.headers, row), ...ext] : ext
  const timestamp = renderLoose(prepared.timestamp, row)
  return {
    topic: renderTopic(prepared.topic, row),
    key: renderLoose(prepared.key, row),
    value: renderLoose(prepared.value, row),
    timestamp: /^-?\d+$/.test(timestamp) ? String(BigInt(timestamp)) : String(Date.now()),
    headers: formalize(pairs, prepared.headerEncoding),
  }
}
