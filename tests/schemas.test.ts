// GET /schemas/{name}: the form schemas EMQX's dashboard reads, built from the field catalogue for the
// types this server offers, public, in 5.8.9's document shape and component names; every reference in
// a document resolves; hotconf and unknown names refused as 5.8's path validation refuses a name.
import { describe, expect, it } from 'vitest'
import { typesWith } from '../contract/integration-fields/index.ts'
import { SchemaDocumentSchema, schemasErrors, type SchemaDocument } from '../contract/schemas.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

async function documentOf(name: string): Promise<SchemaDocument> {
  const answer = await suite.t.raw(`/schemas/${name}`)
  expect(answer.status).toBe(200)
  return expectContract(SchemaDocumentSchema, answer.body, name)
}

/** Every `$ref` in the document names one of its components. */
function danglingRefs(document: SchemaDocument): string[] {
  const refs: string[] = []
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk)
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') refs.push(value)
        else walk(value)
      }
    }
  }
  walk(document)
  return refs.filter((ref) => !(ref.replace('#/components/schemas/', '') in document.components.schemas))
}

const component = (document: SchemaDocument, name: string) => {
  const found = document.components.schemas[name]
  expect(found, name).toBeDefined()
  return found
}
const resolve = (document: SchemaDocument, property: { $ref?: string } | undefined) => component(document, property!.$ref!.replace('#/components/schemas/', ''))

describe('/schemas', () => {
  it('connectors: one post/put/get component per offered type, as the dashboard names them', async () => {
    const document = await documentOf('connectors')
    expect(document.info).toEqual({ title: 'Connectors Schema', version: '0.2.0' })
    expect(danglingRefs(document)).toEqual([])
    const http = component(document, 'bridge_http.post_connector')
    expect(http.properties?.type).toEqual({ type: 'enum', symbols: ['http'] })
    expect(http.properties?.url).toEqual({ type: 'string' })
    expect(http.properties?.pool_size).toEqual({ type: 'integer', minimum: 1, default: 8 })
    expect(http.required).toEqual(['name', 'type', 'url'])
    expect(resolve(document, http.properties?.ssl).properties?.verify).toMatchObject({ type: 'enum', default: 'verify_none' })
    expect(resolve(document, http.properties?.resource_opts).properties?.health_check_interval).toEqual({ type: 'duration', default: '15s' })
    const mqtt = component(document, 'connector_mqtt.post_connector')
    expect(mqtt.properties?.password).toEqual({ type: 'string', format: 'password' })
    expect(component(document, 'bridge_http.put_connector').properties).not.toHaveProperty('name')
    expect(component(document, 'bridge_http.get_connector').properties).toHaveProperty('node_status')
    // Every offered type the catalogue describes (a type's action and connector share its name here).
    const offered = ((await suite.api.get('/action_types')).body as string[]).filter((type) => typesWith('connector').includes(type))
    expect(offered).toContain('http')
    for (const type of offered) expect(Object.keys(document.components.schemas)).toContain(`${type === 'mqtt' ? 'connector_mqtt' : `bridge_${type}`}.post_connector`)
  })

  it('actions: the actions and the sources, parameters as a component, types as /action_types answers them', async () => {
    const document = await documentOf('actions')
    expect(document.info.title).toBe('Actions and Sources Schema')
    expect(danglingRefs(document)).toEqual([])
    const http = component(document, 'bridge_http.post_bridge_v2')
    expect(http.required).toEqual(['connector', 'name', 'type'])
    expect(resolve(document, http.properties?.parameters).properties?.method).toEqual({ type: 'enum', symbols: ['post', 'put', 'get', 'delete'], default: 'post' })
    const mqtt = component(document, 'bridge_mqtt_publisher.post_bridge_v2')
    const parameters = resolve(document, mqtt.properties?.parameters)
    expect(parameters.properties?.qos).toEqual({ oneOf: [{ type: 'enum', symbols: [0, 1, 2] }, { type: 'string', is_template: true }], default: 1 })
    expect(parameters.required).toEqual(['topic'])
    expect(component(document, 'bridge_mqtt_publisher.post_source').properties?.type).toEqual({ type: 'enum', symbols: ['mqtt'] })
    expect(document.paths['/action_types'].get.items?.symbols).toEqual((await suite.api.get('/action_types')).body)
    expect(document.paths['/source_types'].get.items?.symbols).toEqual((await suite.api.get('/source_types')).body)
    expect(document.paths['/actions/:id/enable/:enable']).toEqual({})
  })

  it('bridges: the v1 webhook and MQTT bridges', async () => {
    const document = await documentOf('bridges')
    expect(danglingRefs(document)).toEqual([])
    const webhook = component(document, 'bridge_http.post')
    expect(webhook.properties?.type).toEqual({ type: 'enum', symbols: ['webhook'] })
    expect(Object.keys(webhook.properties ?? {})).toEqual(expect.arrayContaining(['url', 'headers', 'method', 'body', 'max_retries', 'local_topic', 'resource_opts']))
    expect(webhook.properties).not.toHaveProperty('parameters')
    const mqtt = component(document, 'bridge_mqtt.post')
    expect(mqtt.properties?.ingress?.properties?.remote?.properties).toHaveProperty('topic')
    expect(mqtt.properties?.egress?.properties?.remote?.required).toEqual(['topic'])
    expect(mqtt.properties?.egress?.properties?.local?.properties).toHaveProperty('topic')
    expect(mqtt.properties).not.toHaveProperty('pool_size')
  })

  it('refuses hotconf (not built here) and names 5.8 does not know', async () => {
    for (const name of ['hotconf', 'sources', 'nothing']) {
      const answer = await suite.t.raw(`/schemas/${name}`)
      expectContractError(answer, schemasErrors.unknownName)
      expect(JSON.parse(answer.body.message)).toMatchObject({ kind: 'validation_error', path: 'name', value: name })
    }
  })
})
