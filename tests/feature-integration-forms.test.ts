// The data-integration forms' headless parts: SPEC 4's copy name, SPEC 5's bridge and URL rules, the
// catalogue's fields as form descriptors in their sections, and the form's start for a new object,
// a duplicate and a type without a catalogue entry.
import { describe, expect, it } from 'vitest'
import { formFields } from '../contract/integration-fields/index.ts'
import { mqttBridgeErrors, urlTemplateError } from '../src/features/integration/forms/bridgeRules.ts'
import { descriptorOf, sectionOf } from '../src/features/integration/forms/descriptors.ts'
import { CONNECTOR, NAME, RAW, initialForm } from '../src/features/integration/forms/useIntegrationForm.ts'
import { duplicateName } from '../src/ui/duplicateName.ts'

describe('the copy name (SPEC 4)', () => {
  it('appends _duplication, or raises the counter after it', () => {
    expect(duplicateName('webhook')).toBe('webhook_duplication')
    expect(duplicateName('webhook_duplication')).toBe('webhook_duplication_1')
    expect(duplicateName('webhook_duplication_1')).toBe('webhook_duplication_2')
    expect(duplicateName('webhook_duplication_19')).toBe('webhook_duplication_20')
    expect(duplicateName('v_2')).toBe('v_2_duplication')
  })
})

describe("SPEC 5's bridge rules", () => {
  const base = { kind: 'sources' as const, name: 'in', poolSize: 1, nodes: 1, others: [] }

  it('wants a remote topic', () => {
    expect(mqttBridgeErrors({ ...base, topic: ' ' })).toEqual([{ field: 'parameters.topic', key: 'integrationForms.err.remoteTopicRequired' }])
  })

  it('keeps ingress and egress on one connector off the same remote topic, shared or not', () => {
    const others = [{ kind: 'actions' as const, name: 'out', topic: 'remote/t' }]
    expect(mqttBridgeErrors({ ...base, topic: 'remote/t', others })[0]?.key).toBe('integrationForms.err.sharedRemoteTopic')
    expect(mqttBridgeErrors({ ...base, poolSize: 8, topic: '$share/g/remote/t', others })[0]?.key).toBe('integrationForms.err.sharedRemoteTopic')
    expect(mqttBridgeErrors({ ...base, kind: 'actions', name: 'out2', topic: 'remote/x', others: [{ kind: 'sources', name: 'in', topic: 'remote/x' }] })[0]?.key).toBe(
      'integrationForms.err.sharedRemoteTopic',
    )
  })

  it('does not let topics repeat among the connector’s sources, but an object may keep its own topic', () => {
    const others = [{ kind: 'sources' as const, name: 'a', topic: 'remote/t' }]
    expect(mqttBridgeErrors({ ...base, name: 'b', topic: 'remote/t', others })[0]?.key).toBe('integrationForms.err.repeatedTopic')
    expect(mqttBridgeErrors({ ...base, name: 'a', topic: 'remote/t', others })).toEqual([])
    // A duplicated action publishing where the first one does is fine.
    expect(mqttBridgeErrors({ ...base, kind: 'actions', name: 'b', topic: 'remote/t', others: [{ kind: 'actions', name: 'a', topic: 'remote/t' }] })).toEqual([])
  })

  it('wants $share on an ingress topic when the connector is pooled or the cluster has more than one node', () => {
    expect(mqttBridgeErrors({ ...base, poolSize: 8, topic: 'remote/#' })).toEqual([
      { field: 'parameters.topic', key: 'integrationForms.err.ingressShare', values: { pool: 8, nodes: 1 } },
    ])
    expect(mqttBridgeErrors({ ...base, nodes: 3, topic: 'remote/#' })[0]?.key).toBe('integrationForms.err.ingressShare')
    expect(mqttBridgeErrors({ ...base, poolSize: 8, topic: '$share/g/remote/#' })).toEqual([])
    expect(mqttBridgeErrors({ ...base, poolSize: 1, topic: 'remote/#' })).toEqual([])
    expect(mqttBridgeErrors({ ...base, kind: 'actions', poolSize: 8, topic: 'remote/${topic}' })).toEqual([])
  })

  it('allows URL variables in the path only', () => {
    expect(urlTemplateError('http://localhost:8080/api/${clientid}')).toEqual([])
    expect(urlTemplateError('http://${host}:8080/api')).toEqual([{ field: 'url', key: 'integrationForms.err.urlTemplate' }])
    expect(urlTemplateError('http://localhost:${port}/')).toHaveLength(1)
  })
})

describe('the form of a catalogue', () => {
  it('draws each kind with the generated form’s controls and puts fields in their sections', () => {
    const fields = formFields('action', 'http') ?? []
    const kinds = Object.fromEntries(fields.map((f) => [f.path, descriptorOf(f).kind]))
    expect(kinds).toMatchObject({ 'parameters.method': 'enum', 'parameters.headers': 'keyValues', 'parameters.body': 'json', 'resource_opts.request_ttl': 'duration', 'resource_opts.max_buffer_bytes': 'size' })
    const sections = Object.fromEntries(fields.map((f) => [f.path, sectionOf(f, 'action')]))
    expect(sections).toMatchObject({ description: 'basic', 'parameters.path': 'parameters', 'parameters.max_retries': 'advanced', 'resource_opts.query_mode': 'advanced' })
    const connector = formFields('connector', 'mysql') ?? []
    expect(Object.fromEntries(connector.map((f) => [f.path, sectionOf(f, 'connector')]))).toMatchObject({
      server: 'connection',
      'ssl.enable': 'tls',
      'ssl.verify': 'tls',
      'ssl.versions': 'advanced',
      pool_size: 'advanced',
    })
    expect(descriptorOf(connector.find((f) => f.path === 'password')!).secret).toBe(true)
  })

  it('starts a new object at the defaults, a duplicate at its config with the connector picked, and an unknown type as JSON', () => {
    const fresh = initialForm({ role: 'connector', type: 'http' })
    expect(fresh.values).toMatchObject({ [NAME]: '', url: '', connect_timeout: '15s', 'ssl.enable': 'false' })
    const copy = initialForm({
      role: 'action',
      type: 'http',
      name: 'a_duplication',
      connector: 'c',
      config: { type: 'http', name: 'a', connector: 'c', enable: true, status: 'connected', node_status: [], rules: ['r1'], parameters: { path: '/x', method: 'put' }, extra: 1 },
    })
    expect(copy.values).toMatchObject({ [NAME]: 'a_duplication', [CONNECTOR]: 'c', 'parameters.path': '/x', 'parameters.method': 'put' })
    expect(copy.base).toEqual({ enable: true, parameters: { path: '/x', method: 'put' }, extra: 1 })
    const unknown = initialForm({ role: 'action', type: 'snowflake', config: { type: 'snowflake', name: 's', connector: 'c', parameters: { sql: 'x' }, status: 'connected' } })
    expect(unknown.fields).toBeUndefined()
    expect(JSON.parse(unknown.values[RAW])).toEqual({ parameters: { sql: 'x' } })
  })
})
