// The Kafka connectors, producer action and consumer source. There is no Kafka server package on
// this machine, so what is tested is what can be honestly: the config checks and defaults with
// EMQX's messages, rows rendered into the records kafkajs sends (key, value, timestamp, headers,
// topic), the partitioner, consumed messages made into rows, and a closed port, a server that is
// not Kafka and a silent one: a start that fails with kafkajs' reason, a connector disconnected
// with it over REST, and probes answering 'Test failed' with it.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { CompressionTypes, type KafkaMessage, type PartitionerArgs } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UnrecoverableError, type DriverContext } from '../server/integration/driver.ts'
import { kafkaPartitioner, openKafka } from '../server/integration/drivers/kafka-client.ts'
import { kafkaConnectorSettings } from '../server/integration/drivers/kafka-config.ts'
import { kafkaSourceRow } from '../server/integration/drivers/kafka-consumer-source.ts'
import { prepareKafkaProducer, renderKafkaRecord } from '../server/integration/drivers/kafka-producer-message.ts'
import { kafkaConsumerSource, kafkaProducerAction } from '../server/integration/drivers/kafka.ts'
import { serverPerSuite, waitFor } from './support/server.ts'
import { renderedBy, UNTOUCHED_CONNECTION } from './support/rendered.ts'

const ctx = (id: string): DriverContext => ({ node: 'emqx@127.0.0.1', id, broker: {} as DriverContext['broker'] })

describe('kafka connector config', () => {
  it('reads bootstrap hosts with the default port, SASL and TLS; refuses what it cannot do with the reason', () => {
    const settings = kafkaConnectorSettings({ bootstrap_hosts: 'k1, k2:9093,[::1]', authentication: { mechanism: 'scram_sha_512', username: 'u', password: 'p' } })
    expect(settings.brokers).toEqual(['k1:9092', 'k2:9093', '[::1]:9092'])
    expect(settings.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'u', password: 'p' })
    expect(settings).toMatchObject({ connectTimeoutMs: 5000, requestTimeoutMs: 5000, tls: undefined, sniAuto: true, nodelay: true, keepaliveIdleMs: undefined })
    expect(kafkaConnectorSettings({ bootstrap_hosts: 'k', ssl: { enable: true, verify: 'verify_peer' }, socket_opts: { tcp_keepalive: '240,30,5' } })).toMatchObject({
      tls: { rejectUnauthorized: true },
      keepaliveIdleMs: 240_000,
    })
    expect(() => kafkaConnectorSettings({})).toThrow('bootstrap_hosts: required field')
    expect(() => kafkaConnectorSettings({ bootstrap_hosts: 'k', authentication: { kerberos_principal: 'p', kerberos_keytab_file: '/k' } })).toThrow(/Kerberos\) is not supported by this server/)
    expect(() => kafkaConnectorSettings({ bootstrap_hosts: 'k', authentication: { mechanism: 'oauth', username: 'u', password: 'p' } })).toThrow(
      'authentication.mechanism: must be one of plain, scram_sha_256, scram_sha_512',
    )
    expect(() => kafkaConnectorSettings({ bootstrap_hosts: 'k', socket_opts: { sndbuf: '4MB' } })).toThrow(/only the default 1MB is accepted/)
    expect(() => kafkaConnectorSettings({ bootstrap_hosts: 'k', socket_opts: { tcp_keepalive: 'sometimes' } })).toThrow(/Idle,Interval,Probes/)
  })
})

describe('kafka producer action', () => {
  const row = { clientid: 'c1', topic: 't/1', payload: '{"n":1}', timestamp: 1_700_000_000_123, pub_props: { 'User-Property': { a: '1' } }, qos: 1 }

  it("checks its parameters with EMQX's messages and refuses what kafkajs cannot do", () => {
    expect(() => prepareKafkaProducer({})).toThrow('parameters.topic: required field')
    expect(() => prepareKafkaProducer({ topic: 't', partition_strategy: 'key_dispatch', message: { key: '' } })).toThrow(
      'Message key cannot be empty when `key_dispatch` strategy is used',
    )
    expect(() => prepareKafkaProducer({ topic: 't', kafka_headers: 'h-${pub_props}' })).toThrow("The 'kafka_headers' must be a single placeholder like ${pub_props}")
    expect(() => prepareKafkaProducer({ topic: 't', kafka_ext_headers: [{ kafka_ext_header_key: 'k', kafka_ext_header_value: 'a ${b}' }] })).toThrow(
      "The value of 'kafka_ext_headers' must either be a single placeholder like ${foo}, or a simple string.",
    )
    expect(() => prepareKafkaProducer({ topic: 't/${clientid}', buffer: { mode: 'disk' } })).toThrow('disk-mode buffering is disallowed when using dynamic topics')
    expect(() => prepareKafkaProducer({ topic: 't', buffer: { mode: 'hybrid' } })).toThrow(/hybrid is not supported by this server/)
    expect(() => prepareKafkaProducer({ topic: 't', compression: 'snappy' })).toThrow(/snappy is not supported by this server/)
    expect(() => prepareKafkaProducer({ topic: 't', required_acks: 'some' })).toThrow('parameters.required_acks: must be one of all_isr, leader_only, none')
    expect(prepareKafkaProducer({ topic: 't', compression: 'gzip', required_acks: 'leader_only', partitions_limit: 2 })).toMatchObject({
      compression: CompressionTypes.GZIP,
      acks: 1,
      partitionsLimit: 2,
      maxInflight: 10,
      partitionCountRefreshMs: 60_000,
    })
  })

  it('renders key, value and timestamp as 5.8 does: defaults, a missing value as empty text, a bad timestamp as now', async () => {
    const record = renderKafkaRecord(prepareKafkaProducer({ topic: 'kafka-topic' }), row)
    expect(record).toEqual({ topic: 'kafka-topic', key: 'c1', value: JSON.stringify(row), timestamp: '1700000000123', headers: {} })
    const custom = prepareKafkaProducer({ topic: 'k/${clientid}', message: { key: '${nothing}', value: 'n=${payload.n}', timestamp: 'soon' } })
    const before = Date.now()
    const rendered = renderKafkaRecord(custom, row)
    expect(rendered).toMatchObject({ topic: 'k/c1', key: '', value: 'n=1' })
    expect(Number(rendered.timestamp)).toBeGreaterThanOrEqual(before)
    expect(() => renderKafkaRecord(prepareKafkaProducer({ topic: 'k/${nothing}' }), row)).toThrow(new UnrecoverableError('failed_to_render_topic'))
    // a bad timestamp renders as now, so a second render differs from the first in that field only
    const { key, value } = rendered
    expect(await renderedBy(kafkaProducerAction, UNTOUCHED_CONNECTION, custom, [row])).toEqual({ message: { key, value, headers: [], ts: expect.any(Number) } })
  })

  it('takes kafka_headers from a map, a key/value list or JSON text, adds the ext headers, and encodes them', () => {
    const ext = [
      { kafka_ext_header_key: 'clientid', kafka_ext_header_value: '${clientid}' },
      { kafka_ext_header_key: 'fixed', kafka_ext_header_value: 'yes' },
      { kafka_ext_header_key: 'gone', kafka_ext_header_value: '${nothing}' },
      { kafka_ext_header_key: 'qos', kafka_ext_header_value: '${qos}' },
    ]
    const none = prepareKafkaProducer({ topic: 't', kafka_headers: '${h}', kafka_ext_headers: ext })
    // `none` keeps text values only: the number qos is left out, as EMQX drops non-binary values.
    expect(renderKafkaRecord(none, { ...row, h: { a: 'x', n: 2 } }).headers).toEqual({ a: 'x', clientid: 'c1', fixed: 'yes' })
    expect(renderKafkaRecord(none, { ...row, h: [{ key: 'a', value: 'x' }, [{ key: 'a', value: 'y' }]] }).headers).toEqual({ a: ['x', 'y'], clientid: 'c1', fixed: 'yes' })
    expect(renderKafkaRecord(none, { ...row, h: '{"b":"z"}' }).headers).toEqual({ b: 'z', clientid: 'c1', fixed: 'yes' })
    expect(renderKafkaRecord(none, row).headers).toEqual({ clientid: 'c1', fixed: 'yes' })
    expect(() => renderKafkaRecord(none, { ...row, h: 'not json' })).toThrow('bad_kafka_headers: not json')
    expect(() => renderKafkaRecord(none, { ...row, h: [1] })).toThrow('bad_kafka_header: 1')
    const json = prepareKafkaProducer({ topic: 't', kafka_headers: '${h}', kafka_ext_headers: ext, kafka_header_value_encode_mode: 'json' })
    expect(renderKafkaRecord(json, { ...row, h: { a: 'x', n: 2 } }).headers).toEqual({ a: '"x"', n: '2', clientid: '"c1"', fixed: '"yes"', qos: '1' })
  })

  it('key_dispatch sends a key to the partition wolff picks (phash2 rem count); partitions_limit keeps to the first partitions', () => {
    const partitionMetadata = [0, 1, 2, 3, 4, 5, 6, 7].map((partitionId) => ({ partitionId, partitionErrorCode: 0, leader: 0, replicas: [0], isr: [0], offlineReplicas: [] }))
    const args = (key: string): PartitionerArgs => ({ topic: 't', partitionMetadata, message: { key, value: 'v' } })
    const byKey = kafkaPartitioner('key_dispatch', undefined)()
    // erlang:phash2(Key) rem 8, the partitions EMQX's wolff picks (phash2 of a, sensor-1: 112802447, 107917632).
    expect(byKey(args('a'))).toBe(112802447 % 8)
    expect(byKey(args('sensor-1'))).toBe(107917632 % 8)
    expect(kafkaPartitioner('key_dispatch', 3)()(args('sensor-1'))).toBe(107917632 % 3)
    const random = kafkaPartitioner('random', 2)()
    const chosen = new Set(Array.from({ length: 200 }, () => random(args('x'))))
    expect([...chosen].sort()).toEqual([0, 1])
  })
})

describe('kafka consumer source', () => {
  it('checks its parameters: group id from the name, the legacy topic mapping refused', () => {
    expect(kafkaConsumerSource.prepare({ topic: 'in' }, ctx('kafka_consumer:src'))).toEqual({
      topic: 'in',
      groupId: 'emqx-kafka-consumer-src',
      maxBytes: 896 * 1024,
      maxWaitMs: 1000,
      fromBeginning: false,
      commitIntervalMs: 5000,
      keyEncoding: 'none',
      valueEncoding: 'none',
    })
    expect(kafkaConsumerSource.prepare({ topic: 'in', group_id: 'g', offset_reset_policy: 'earliest', offset_commit_interval_seconds: 2 }, ctx('kafka_consumer:src'))).toMatchObject({
      groupId: 'g',
      fromBeginning: true,
      commitIntervalMs: 2000,
    })
    expect(() => kafkaConsumerSource.prepare({}, ctx('kafka_consumer:src'))).toThrow('parameters.topic: required field')
    expect(() => kafkaConsumerSource.prepare({ topic: 'in', topic_mapping: [{ kafka_topic: 'in', mqtt_topic: 'm' }] }, ctx('kafka_consumer:src'))).toThrow(/not supported by this server/)
    expect(() => kafkaConsumerSource.prepare({ topic: 'in', key_encoding_mode: 'hex' }, ctx('kafka_consumer:src'))).toThrow('parameters.key_encoding_mode: must be one of none, base64')
  })

  it('makes a consumed message the row 5.8 hands the rules, key and value as text or base64', () => {
    const message = { key: Buffer.from('k1'), value: Buffer.from([0xff, 0x00]), timestamp: '1700000000000', attributes: 0, offset: '42', headers: { h: Buffer.from('v'), m: [Buffer.from('1'), Buffer.from('2')] } } as KafkaMessage
    expect(kafkaSourceRow('in', message, { keyEncoding: 'none', valueEncoding: 'base64' })).toEqual({
      headers: { h: 'v', m: ['1', '2'] },
      key: 'k1',
      offset: 42,
      topic: 'in',
      ts: 1_700_000_000_000,
      ts_type: 'create',
      value: '/wA=',
    })
  })
})

describe('kafka against servers that are not Kafka', () => {
  const servers: Server[] = []
  async function listen(onSocket: (socket: Socket) => void): Promise<number> {
    const server = createServer(onSocket)
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return (server.address() as AddressInfo).port
  }
  let notKafka = 0
  let silent = 0
  beforeAll(async () => {
    notKafka = await listen((socket) => socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')))
    silent = await listen(() => undefined)
  })
  afterAll(() => {
    for (const server of servers) {
      server.close()
    }
  })

  it("a closed port, a server speaking something else and a silent one fail the start with kafkajs' reason", async () => {
    await expect(openKafka({ bootstrap_hosts: '127.0.0.1:1' }, 'c')).rejects.toThrow('Connection error: connect ECONNREFUSED 127.0.0.1:1')
    await expect(openKafka({ bootstrap_hosts: `127.0.0.1:${notKafka}` }, 'c')).rejects.toThrow('Closed connection')
    await expect(openKafka({ bootstrap_hosts: `127.0.0.1:${silent}`, metadata_request_timeout: '300ms', connect_timeout: '300ms' }, 'c')).rejects.toThrow(/ApiVersions.*timed out/)
  })

  const suite = serverPerSuite()

  it('over REST: the types are offered, defaults filled in, the connector disconnected with the reason, probes fail with it', async () => {
    expect((await suite.api.get('/action_types')).body).toContain('kafka_producer')
    expect((await suite.api.get('/source_types')).body).toContain('kafka_consumer')
    const created = await suite.api.post('/connectors', {
      type: 'kafka_producer',
      name: 'k',
      bootstrap_hosts: `127.0.0.1:${notKafka}`,
      authentication: { mechanism: 'plain', username: 'u', password: 'secret' },
      resource_opts: { health_check_interval: '200ms', start_timeout: '1s' },
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      connect_timeout: '5s',
      metadata_request_timeout: '5s',
      min_metadata_refresh_interval: '3s',
      authentication: { mechanism: 'plain', username: 'u', password: '******' },
      socket_opts: { sndbuf: '1MB', recbuf: '1MB', nodelay: true, tcp_keepalive: 'none' },
      ssl: { enable: false, server_name_indication: 'auto' },
    })
    const down = await waitFor(async () => {
      const body = (await suite.api.get('/connectors/kafka_producer:k')).body
      return body.status === 'disconnected' && body
    }, 'the connector disconnected')
    expect(down.status_reason).toBe('Closed connection')

    const action = await suite.api.post('/actions', { type: 'kafka_producer', name: 'k', connector: 'k', parameters: { topic: 'kafka-topic' } })
    expect(action.status).toBe(201)
    expect(action.body.parameters).toMatchObject({ topic: 'kafka-topic', message: { key: '${.clientid}', value: '${.}', timestamp: '${.timestamp}' }, required_acks: 'all_isr', max_inflight: 10 })
    expect(action.body.status).toBe('disconnected')
    const refused = await suite.api.post('/actions', { type: 'kafka_producer', name: 'k2', connector: 'k', parameters: { topic: 't', compression: 'snappy' } })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/snappy is not supported by this server/)

    const probe = await suite.api.post('/connectors_probe', { type: 'kafka_producer', name: 'p', bootstrap_hosts: '127.0.0.1:1' })
    expect(probe.body).toEqual({ code: 'TEST_FAILED', message: 'Connection error: connect ECONNREFUSED 127.0.0.1:1' })
    const kerberos = await suite.api.post('/connectors', { type: 'kafka_consumer', name: 'krb', bootstrap_hosts: 'k', authentication: { kerberos_principal: 'p', kerberos_keytab_file: '/k' } })
    expect(kerberos.status).toBe(400)
    expect(kerberos.body.message).toMatch(/Kerberos\) is not supported by this server/)

    expect((await suite.api.post('/connectors', { type: 'kafka_consumer', name: 'in', bootstrap_hosts: `127.0.0.1:${silent}`, metadata_request_timeout: '300ms', connect_timeout: '300ms' })).status).toBe(201)
    const source = await suite.api.post('/sources', { type: 'kafka_consumer', name: 'in', connector: 'in', parameters: { topic: 'in' } })
    expect(source.status).toBe(201)
    expect(source.body.parameters).toMatchObject({ topic: 'in', offset_reset_policy: 'latest', key_encoding_mode: 'none', max_wait_time: '1s' })
    const sourceProbe = await suite.api.post('/sources_probe', { type: 'kafka_consumer', name: 'in', connector: 'in', parameters: { topic: 'in' } })
    expect(sourceProbe.body.code).toBe('TEST_FAILED')
    expect(sourceProbe.body.message).toMatch(/ApiVersions.*timed out/)
  })
})
