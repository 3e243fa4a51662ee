// The data-integration field catalogue (contract/integration-fields): a form for every type the
// server offers, 5.8.9's defaults, conditions, and configs to form values and back without losing
// what the form does not show; round trips through the real server's answers.
import { describe, expect, it } from 'vitest'
import {
  CATALOGUE,
  defaultFormValues,
  editableConfig,
  formFields,
  fromFormValues,
  isShown,
  readConfig,
  toFormValues,
  typesWith,
  writeConfig,
  type IntegrationField,
} from '../contract/integration-fields/index.ts'
import { MYSQL_DEFAULT_SQL, PGSQL_DEFAULT_SQL } from '../contract/connectors.ts'
import { drivers } from '../server/integration/drivers/index.ts'
import { serverPerSuite } from './support/server.ts'

const paths = (fields: IntegrationField[] | undefined) => (fields ?? []).map((field) => field.path)
const field = (fields: IntegrationField[] | undefined, path: string) => fields?.find((f) => f.path === path)

describe('the catalogue', () => {
  it('has a form for every connector, action and source type the server offers, and for the enterprise types the issue names', () => {
    for (const [type, set] of drivers) {
      expect(formFields('connector', type), type).toBeDefined()
      if (set.action) expect(formFields('action', type), `${type} action`).toBeDefined()
      if (set.source) expect(formFields('source', type), `${type} source`).toBeDefined()
    }
    expect(typesWith('connector')).toEqual(['http', 'mqtt', 'pgsql', 'mysql', 'redis', 'influxdb', 'mongodb', 'kafka_producer', 'kafka_consumer'])
    expect(typesWith('action')).toEqual(['http', 'mqtt', 'pgsql', 'mysql', 'redis', 'influxdb', 'mongodb', 'kafka_producer'])
    expect(typesWith('source')).toEqual(['mqtt', 'kafka_consumer'])
    expect(formFields('connector', 'snowflake')).toBeUndefined()
    expect(formFields('source', 'http')).toBeUndefined()
  })

  it("takes 5.8.9's defaults from TYPE_DEFAULTS and RESOURCE_OPTS_DEFAULTS", () => {
    const http = formFields('connector', 'http')
    expect(field(http, 'connect_timeout')?.default).toBe('15s')
    expect(field(http, 'pool_size')?.default).toBe(8)
    expect(field(http, 'headers')?.default).toMatchObject({ 'content-type': 'application/json' })
    expect(field(http, 'resource_opts.start_timeout')?.default).toBe('5s')
    expect(field(formFields('action', 'http'), 'parameters.method')?.default).toBe('post')
    expect(field(formFields('action', 'pgsql'), 'parameters.sql')?.default).toBe(PGSQL_DEFAULT_SQL)
    expect(field(formFields('action', 'mysql'), 'parameters.sql')?.default).toBe(MYSQL_DEFAULT_SQL)
    expect(field(formFields('connector', 'mqtt'), 'keepalive')?.default).toBe('160s')
    expect(field(formFields('action', 'kafka_producer'), 'parameters.message.key')?.default).toBe('${.clientid}')
    expect(field(formFields('connector', 'mongodb'), 'parameters.w_mode')?.default).toBe('unsafe')
    expect(field(formFields('connector', 'kafka_consumer'), 'ssl.server_name_indication')?.default).toBe('auto')
    expect(field(formFields('action', 'mqtt'), 'resource_opts.request_ttl')?.default).toBe('45s')
  })

  it('expands the TLS group, shown only while TLS is on', () => {
    const fields = formFields('connector', 'mysql') ?? []
    expect(paths(fields)).toEqual(expect.arrayContaining(['ssl.enable', 'ssl.verify', 'ssl.cacertfile', 'ssl.certfile', 'ssl.keyfile', 'ssl.server_name_indication']))
    const values = defaultFormValues(fields)
    expect(values['ssl.enable']).toBe('false')
    expect(isShown(field(fields, 'ssl.verify') as IntegrationField, values)).toBe(false)
    expect(isShown(field(fields, 'ssl.verify') as IntegrationField, { ...values, 'ssl.enable': 'true' })).toBe(true)
  })

  it('gives each role its own resource options; http, mqtt and mongodb actions have no batch fields', () => {
    expect(paths(formFields('connector', 'http')).filter((p) => p.startsWith('resource_opts.'))).toEqual([
      'resource_opts.health_check_interval',
      'resource_opts.start_after_created',
      'resource_opts.start_timeout',
    ])
    expect(paths(formFields('source', 'mqtt')).filter((p) => p.startsWith('resource_opts.'))).toEqual(['resource_opts.health_check_interval'])
    for (const type of ['http', 'mqtt', 'mongodb']) expect(paths(formFields('action', type))).not.toContain('resource_opts.batch_size')
    for (const type of ['pgsql', 'mysql', 'redis', 'influxdb', 'kafka_producer']) expect(paths(formFields('action', type))).toContain('resource_opts.batch_size')
    expect(formFields('action', 'pgsql')?.filter((f) => f.path.startsWith('resource_opts.')).every((f) => f.advanced)).toBe(true)
  })

  it('labels every field of every type in both languages', async () => {
    const en = (await import('../locales/en.json')).default as Record<string, unknown>
    const zh = (await import('../locales/zh.json')).default as Record<string, unknown>
    const has = (tree: Record<string, unknown>, key: string) => valueIn(tree, key) !== undefined
    for (const type of Object.keys(CATALOGUE)) {
      for (const role of ['connector', 'action', 'source'] as const) {
        for (const f of formFields(role, type) ?? []) {
          const key = f.label ?? `integrationFields.field.${f.path.split('.').at(-1)}`
          expect(has(en, key), `${type} ${role} ${f.path}: ${key}`).toBe(true)
          expect(has(zh, key), `${type} ${role} ${f.path}: ${key} (zh)`).toBe(true)
          if (f.help) expect(has(en, f.help) && has(zh, f.help), f.help).toBe(true)
        }
      }
      expect(has(en, `integrationFields.type.${type}`) && has(zh, `integrationFields.type.${type}`), type).toBe(true)
    }
  })
})

function valueIn(tree: Record<string, unknown>, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), tree)
}

describe('config and form values', () => {
  it('fills the form from a config, keeps keys the form lacks, and writes what was changed', () => {
    const fields = formFields('connector', 'http') ?? []
    const config = {
      url: 'http://127.0.0.1:8080/hooks',
      headers: { 'content-type': 'text/plain' },
      pool_size: 4,
      ssl: { enable: false },
      resource_opts: { health_check_interval: '10s', start_after_created: true, start_timeout: '5s' },
      request: { note: 'deprecated, kept' },
      future_field: 42,
    }
    const values = toFormValues(fields, config)
    expect(values.url).toBe('http://127.0.0.1:8080/hooks')
    expect(values.pool_size).toBe('4')
    expect(JSON.parse(values.headers)).toEqual([['content-type', 'text/plain']])
    expect(values['resource_opts.health_check_interval']).toBe('10s')
    expect(values.connect_timeout).toBe('15s')

    const { config: back, errors } = fromFormValues(fields, { ...values, pool_size: '16' }, config)
    expect(errors).toEqual([])
    expect(back).toMatchObject({ ...config, pool_size: 16, connect_timeout: '15s' })
    expect(back.future_field).toBe(42)
    expect(back.request).toEqual({ note: 'deprecated, kept' })
    expect(config.pool_size).toBe(4)
  })

  it('reports required fields and values not of their kind, with the keys of both languages', () => {
    const fields = formFields('connector', 'http') ?? []
    const values = { ...defaultFormValues(fields), pool_size: 'x', connect_timeout: 'soon' }
    expect(fromFormValues(fields, values).errors).toEqual([
      { field: 'url', key: 'err.required' },
      { field: 'connect_timeout', key: 'err.duration' },
      { field: 'pool_size', key: 'err.number' },
    ])
    const min = fromFormValues(fields, { ...defaultFormValues(fields), url: 'http://h', pool_size: '0' }).errors
    expect(min).toEqual([{ field: 'pool_size', key: 'err.min', values: { min: 1 } }])
  })

  it('sends nothing for a field its condition hides: a Redis cluster has servers, no server and no database', () => {
    const fields = formFields('connector', 'redis') ?? []
    const single = { parameters: { redis_type: 'single', server: '127.0.0.1:6379', database: 2, pool_size: 8 }, ssl: { enable: false } }
    const values = toFormValues(fields, single)
    expect(values['parameters.database']).toBe('2')
    const cluster = fromFormValues(fields, { ...values, 'parameters.redis_type': 'cluster', 'parameters.servers': 'a:7000,b:7000' }, single)
    expect(cluster.errors).toEqual([])
    expect(cluster.config.parameters).toEqual({ redis_type: 'cluster', servers: 'a:7000,b:7000', pool_size: 8 })
    const missing = fromFormValues(fields, { ...values, 'parameters.redis_type': 'sentinel' }, single)
    expect(missing.errors.map((e) => e.field)).toEqual(['parameters.servers', 'parameters.sentinel'])
  })

  it('keeps a masked secret as it came, so the stored one stays', () => {
    const fields = formFields('connector', 'mysql') ?? []
    const config = { server: 'db:3306', database: 'mqtt', username: 'root', password: '******', pool_size: 8, ssl: { enable: false } }
    const { config: back } = fromFormValues(fields, toFormValues(fields, config), config)
    expect(back.password).toBe('******')
  })

  it('reads enum options back as their own type (qos 1 a number, retain false a boolean, a template a string)', () => {
    const fields = formFields('action', 'mqtt') ?? []
    const values = defaultFormValues(fields)
    expect(values['parameters.qos']).toBe('1')
    const { config } = fromFormValues(fields, { ...values, 'parameters.topic': 'remote/${topic}', 'parameters.retain': '${flags.retain}' })
    expect(config.parameters).toMatchObject({ topic: 'remote/${topic}', qos: 1, retain: '${flags.retain}' })
    const { config: plain } = fromFormValues(fields, { ...values, 'parameters.topic': 't' })
    expect((plain.parameters as Record<string, unknown>).retain).toBe(false)
  })

  it("turns Redis' command template into lines and back, and Kafka's authentication 'none' into a mechanism and back", () => {
    const redis = formFields('action', 'redis') ?? []
    const values = toFormValues(redis, { parameters: { command_template: ['LPUSH', 'MSGS', '${payload}'] } })
    expect(values['parameters.command_template']).toBe('LPUSH\nMSGS\n${payload}')
    expect(fromFormValues(redis, values).config.parameters).toEqual({ command_template: ['LPUSH', 'MSGS', '${payload}'] })

    const kafka = formFields('connector', 'kafka_producer') ?? []
    const stored = { bootstrap_hosts: 'k:9092', authentication: 'none' }
    const form = toFormValues(kafka, readConfig('connector', 'kafka_producer', stored))
    expect(form['authentication.mechanism']).toBe('none')
    const back = fromFormValues(kafka, form, readConfig('connector', 'kafka_producer', stored))
    expect(writeConfig('connector', 'kafka_producer', back.config).authentication).toBe('none')
    const sasl = fromFormValues(kafka, { ...form, 'authentication.mechanism': 'plain', 'authentication.username': 'u', 'authentication.password': 'p' })
    expect(writeConfig('connector', 'kafka_producer', sasl.config).authentication).toEqual({ mechanism: 'plain', username: 'u', password: 'p' })
  })
})

describe('round trips through the server', () => {
  const suite = serverPerSuite()

  it("a connector's and an action's answers fill their forms, and the values PUT back change nothing", async () => {
    const connectorFields = formFields('connector', 'http') ?? []
    const fresh = fromFormValues(connectorFields, { ...defaultFormValues(connectorFields), url: 'http://127.0.0.1:1/base' })
    expect(fresh.errors).toEqual([])
    const created = await suite.api.post('/connectors', { type: 'http', name: 'rt', ...fresh.config, resource_opts: { ...(fresh.config.resource_opts as object), start_after_created: false } })
    expect(created.status).toBe(201)
    const answer = editableConfig((await suite.api.get('/connectors/http:rt')).body)
    const again = fromFormValues(connectorFields, toFormValues(connectorFields, answer), answer)
    expect(again.config).toEqual(answer)
    const put = await suite.api.request('PUT', '/connectors/http:rt', again.config)
    expect(put.status).toBe(200)
    expect(editableConfig(put.body)).toEqual(answer)

    const actionFields = formFields('action', 'http') ?? []
    const action = fromFormValues(actionFields, { ...defaultFormValues(actionFields), 'parameters.path': '/${clientid}' })
    const made = await suite.api.post('/actions', { type: 'http', name: 'rt', connector: 'rt', ...action.config })
    expect(made.status).toBe(201)
    const read = editableConfig((await suite.api.get('/actions/http:rt')).body)
    expect(fromFormValues(actionFields, toFormValues(actionFields, read), read).config).toEqual(read)
  })
})
