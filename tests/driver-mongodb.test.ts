// The MongoDB connector and action. There is no MongoDB server package on this machine, so what is
// tested is what can be honestly: the connector's config (single, rs, sharded, srv_record, w_mode,
// r_mode, topology, TLS) with the reason for each refusal, the documents rows become (the selected
// data, or payload_template read as JSON; mongo_date() as a date; the collection template), and a
// closed port, a server that is not MongoDB and an SRV name that does not resolve: a start that
// fails with the driver's reason, a connector disconnected with it over REST, probes failing with it.
import { createServer, type AddressInfo, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UnrecoverableError, type DriverContext } from '../server/integration/driver.ts'
import { mongodbConnection } from '../server/integration/drivers/mongodb-config.ts'
import { mongodbAction, mongodbConnector, mongodbDocument } from '../server/integration/drivers/mongodb.ts'
import { callRuleFunction } from '../server/rules/functions/index.ts'
import { serverPerSuite, waitFor } from './support/server.ts'
import { renderedBy, UNTOUCHED_CONNECTION } from './support/rendered.ts'

const ctx = (id: string): DriverContext => ({ node: 'emqx@127.0.0.1', id, broker: {} as DriverContext['broker'] })
const fast = { server_selection_timeout_ms: '300ms', connect_timeout_ms: '300ms' }

describe('mongodb connector config', () => {
  it('reads single, rs and sharded as EMQX names them, and refuses with the reason', () => {
    expect(mongodbConnection({ database: 'mqtt', parameters: { mongo_type: 'single', server: '127.0.0.1:27017' } })).toMatchObject({
      mongo_type: 'single',
      server: '127.0.0.1:27017',
      database: 'mqtt',
      pool_size: 8,
      w_mode: 'unsafe',
      srv_record: false,
      tls: undefined,
    })
    expect(
      mongodbConnection({
        database: 'mqtt',
        username: 'u',
        password: 'p',
        auth_source: 'users',
        parameters: { mongo_type: 'rs', servers: 'a:27017,b', replica_set_name: 'rs0', w_mode: 'safe', r_mode: 'slave_ok' },
        topology: { heartbeat_frequency_ms: '200s', socket_timeout_ms: '3s' },
        ssl: { enable: true, verify: 'verify_peer', server_name_indication: 'db.example' },
      }),
    ).toMatchObject({
      mongo_type: 'rs',
      servers: 'a:27017,b',
      replica_set_name: 'rs0',
      w_mode: 'safe',
      r_mode: 'slave_ok',
      auth_source: 'users',
      topology: { heartbeatFrequencyMS: 200_000, socketTimeoutMS: 3000 },
      tls: { rejectUnauthorized: true, servername: 'db.example' },
    })
    expect(mongodbConnection({ database: 'd', parameters: { mongo_type: 'sharded', servers: 'a,b' } })).toMatchObject({ mongo_type: 'sharded', servers: 'a,b' })
    expect(() => mongodbConnection({ database: 'd' })).toThrow('parameters: required field')
    expect(() => mongodbConnection({ database: 'd', parameters: { mongo_type: 'cluster', server: 'a' } })).toThrow('parameters.mongo_type: must be one of single, rs, sharded')
    expect(() => mongodbConnection({ database: 'd', parameters: { mongo_type: 'rs', servers: 'a' } })).toThrow('parameters.replica_set_name: required field')
    expect(() => mongodbConnection({ parameters: { mongo_type: 'single', server: 'a' } })).toThrow('database: required field')
    expect(() => mongodbConnection({ database: 'd', use_legacy_protocol: true, parameters: { mongo_type: 'single', server: 'a' } })).toThrow(/legacy wire protocol \(OP_QUERY\) is not supported/)
    expect(() => mongodbConnection({ database: 'd', topology: { max_overflow: 2 }, parameters: { mongo_type: 'single', server: 'a' } })).toThrow(/no pool overflow/)
    expect(() => mongodbConnection({ database: 'd', parameters: { mongo_type: 'single', server: 'a', w_mode: 'maybe' } })).toThrow('parameters.w_mode: must be one of safe, unsafe')
  })
})

describe('mongodb action', () => {
  const row = { clientid: 'c1', topic: 't/1', payload: '{"temp":21.5}', qos: 1 }

  it('sends the selected data as the document by default, or payload_template read as JSON', async () => {
    const plain = mongodbAction.prepare({}, ctx('mongodb:a'))
    expect(mongodbDocument(plain, row)).toEqual(row)
    expect(await renderedBy(mongodbAction, UNTOUCHED_CONNECTION, plain, [row])).toEqual({ collection: 'mqtt', data: row })
    expect(mongodbDocument(mongodbAction.prepare({ payload_template: '' }, ctx('mongodb:a')), row)).toEqual(row)
    const templated = mongodbAction.prepare({ collection: 'c_${clientid}', payload_template: '{"t": ${payload.temp}, "who": "${clientid}"}' }, ctx('mongodb:b'))
    expect(await renderedBy(mongodbAction, UNTOUCHED_CONNECTION, templated, [row])).toEqual({ collection: 'c_c1', data: { t: 21.5, who: 'c1' } })
    expect(() => mongodbDocument(mongodbAction.prepare({ payload_template: '{"t": ${nothing' }, ctx('mongodb:c')), row)).toThrow(UnrecoverableError)
    expect(() => mongodbDocument(mongodbAction.prepare({ payload_template: '[1]' }, ctx('mongodb:c')), row)).toThrow('payload_template must render a JSON object, got: [1]')
    expect(() => mongodbAction.prepare({ collection: '' }, ctx('mongodb:c'))).toThrow('parameters.collection: must be a non-empty template')
  })

  it("makes mongo_date() values dates, as EMQX's driver makes ISODate of them", () => {
    const date = callRuleFunction('mongo_date', [1_700_000_000_123])
    const document = mongodbDocument(mongodbAction.prepare({}, ctx('mongodb:d')), { ...row, at: date, nested: { at: date } })
    expect(document.at).toEqual(new Date(1_700_000_000_123))
    expect(document.nested).toEqual({ at: new Date(1_700_000_000_123) })
    const templated = mongodbAction.prepare({ payload_template: '{"at": "${at}"}' }, ctx('mongodb:e'))
    expect(mongodbDocument(templated, { at: date })).toEqual({ at: new Date(1_700_000_000_123) })
  })
})

describe('mongodb against servers that are not MongoDB', () => {
  let notMongo: Server
  let port = 0
  beforeAll(async () => {
    notMongo = createServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')))
    await new Promise<void>((resolve) => notMongo.listen(0, '127.0.0.1', resolve))
    port = (notMongo.address() as AddressInfo).port
  })
  afterAll(() => {
    notMongo.close()
  })

  it("a closed port, a server speaking something else and an SRV name that does not resolve fail the start with the driver's reason", async () => {
    const single = (server: string, extra: Record<string, unknown> = {}) => ({ database: 'mqtt', topology: fast, parameters: { mongo_type: 'single', server }, ...extra })
    await expect(mongodbConnector.start(single('127.0.0.1:1'), ctx('mongodb:x'))).rejects.toThrow(/ECONNREFUSED 127.0.0.1:1/)
    await expect(mongodbConnector.start(single(`127.0.0.1:${port}`), ctx('mongodb:x'))).rejects.toThrow(/127.0.0.1:\d+/)
    await expect(mongodbConnector.start(single('no-such-host.invalid', { srv_record: true }), ctx('mongodb:x'))).rejects.toThrow(/querySrv|ENOTFOUND|no-such-host/)
  })

  const suite = serverPerSuite()

  it('over REST: the type is offered, defaults filled in, the connector disconnected with the reason, probes fail with it', async () => {
    expect((await suite.api.get('/action_types')).body).toContain('mongodb')
    const created = await suite.api.post('/connectors', {
      type: 'mongodb',
      name: 'm',
      database: 'mqtt',
      password: 'secret',
      username: 'u',
      topology: fast,
      parameters: { mongo_type: 'single', server: '127.0.0.1:1' },
      resource_opts: { health_check_interval: '200ms', start_timeout: '1s' },
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ srv_record: false, pool_size: 8, use_legacy_protocol: 'auto', password: '******', ssl: { enable: false }, parameters: { mongo_type: 'single', w_mode: 'unsafe' } })
    const down = await waitFor(async () => {
      const body = (await suite.api.get('/connectors/mongodb:m')).body
      return body.status === 'disconnected' && body
    }, 'the connector disconnected')
    expect(down.status_reason).toMatch(/ECONNREFUSED 127.0.0.1:1/)

    const action = await suite.api.post('/actions', { type: 'mongodb', name: 'm', connector: 'm', parameters: {} })
    expect(action.status).toBe(201)
    expect(action.body.parameters).toEqual({ collection: 'mqtt' })
    expect(action.body.status).toBe('disconnected')

    const refused = await suite.api.post('/connectors', { type: 'mongodb', name: 'bad', database: 'mqtt', parameters: { mongo_type: 'rs', servers: 'a' } })
    expect(refused.body).toEqual({ code: 'BAD_REQUEST', message: 'parameters.replica_set_name: required field' })
    const probe = await suite.api.post('/connectors_probe', { type: 'mongodb', name: 'p', database: 'mqtt', topology: fast, parameters: { mongo_type: 'single', server: `127.0.0.1:${port}` } })
    expect(probe.body.code).toBe('TEST_FAILED')
    expect(probe.body.message).toMatch(/127.0.0.1/)
  })
})
