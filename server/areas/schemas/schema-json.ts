// The documents of GET /schemas/{connectors,actions,bridges} built from the data-integration field
// catalogue (contract/integration-fields), in the shape emqx_dashboard_schema_api 5.8.9 answers:
// `{info, paths, components: {schemas}}` with the component names EMQX's dashboard looks up
// (`bridge_http.post_connector`, `connector_mqtt.post_connector`, `bridge_<type>.post_bridge_v2`,
// `bridge_mqtt_publisher.post_source`, the v1 `bridge_http.post` and `bridge_mqtt.post`).
import { formFields, type IntegrationField, type IntegrationRole } from '../../../contract/integration-fields/index.ts'
import { RESOURCE_STATUSES } from '../../../contract/connectors.ts'
import { SCHEMA_TITLES, SCHEMA_VERSION, type SchemaDocument, type SchemaName, type SchemaProperty } from '../../../contract/schemas.ts'

/** The field of a catalogue entry, or one written here, at a path relative to its object. */
interface Leaf {
  path: string
  property: SchemaProperty
  required: boolean
}

const refTo = (name: string): SchemaProperty => ({ $ref: `#/components/schemas/${name}` })
const template: SchemaProperty = { type: 'string', is_template: true }
const isTemplateOption = (option: unknown) => typeof option === 'string' && option.includes('${')

/** A catalogue field as hocon_schema_to_spec/2 writes its type, with its default. */
export function fieldProperty(field: IntegrationField): SchemaProperty {
  const own = ((): SchemaProperty => {
    switch (field.kind) {
      case 'secret':
        return { type: 'string', format: 'password' }
      case 'number':
        return { type: 'integer', ...(field.min !== undefined ? { minimum: field.min } : {}), ...(field.max !== undefined ? { maximum: field.max } : {}) }
      case 'boolean':
        return { type: 'boolean' }
      case 'enum': {
        const options = field.options ?? []
        const symbols = options.filter((option) => !isTemplateOption(option))
        return options.some(isTemplateOption) ? { oneOf: [{ type: 'enum', symbols }, template] } : { type: 'enum', symbols }
      }
      case 'duration':
        return field.literals?.length ? { oneOf: [{ type: 'enum', symbols: [...field.literals] }, { type: 'duration' }] } : { type: 'duration' }
      case 'bytesize':
        return { type: 'byteSize' }
      case 'template':
        return { ...template }
      case 'sql':
        return { type: 'string', format: 'sql', is_template: true }
      case 'map':
        return { type: 'object', properties: { $name: { ...template } } }
      case 'templates':
        return { type: 'array', items: { ...template } }
      case 'strings':
        return { type: 'array', items: { type: 'string' } }
      case 'json':
        return { type: 'object' }
      default:
        return { type: 'string' }
    }
  })()
  return field.default === undefined ? own : { ...own, default: field.default }
}

const leaf = (path: string, property: SchemaProperty, required = false): Leaf => ({ path, property, required })
const leavesOf = (fields: readonly IntegrationField[]): Leaf[] => fields.map((field) => leaf(field.path, fieldProperty(field), field.required === true))

/**
 * The object of `leaves` (dotted paths nest), keys in the order given, `required` sorted as EMQX's
 * usort leaves it; `group` may turn a top-level nested object into a reference to a component.
 */
function objectOf(leaves: readonly Leaf[], group?: (key: string, object: SchemaProperty) => SchemaProperty): SchemaProperty {
  const properties: Record<string, SchemaProperty> = {}
  const required = new Set<string>()
  const nested = new Map<string, Leaf[]>()
  for (const item of leaves) {
    const [head, ...rest] = item.path.split('.')
    if (rest.length === 0) {
      properties[head] = item.property
      if (item.required) required.add(head)
      continue
    }
    if (!nested.has(head)) {
      nested.set(head, [])
      properties[head] = {}
    }
    nested.get(head)!.push({ ...item, path: rest.join('.') })
  }
  for (const [head, inner] of nested) {
    const object = objectOf(inner)
    properties[head] = group ? group(head, object) : object
    if (inner.some((item) => item.required)) required.add(head)
  }
  return { type: 'object', properties, ...(required.size > 0 ? { required: [...required].sort() } : {}) }
}

const COMMON: readonly Leaf[] = [leaf('enable', { type: 'boolean', default: true }), leaf('tags', { type: 'array', items: { type: 'string' } })]
const STATUS: readonly Leaf[] = [
  leaf('status', { type: 'enum', symbols: [...RESOURCE_STATUSES, 'inconsistent'] }),
  leaf('status_reason', { type: 'string' }),
  leaf('node_status', { type: 'array', items: objectOf([leaf('node', { type: 'string' }), leaf('status', { type: 'enum', symbols: [...RESOURCE_STATUSES] }), leaf('status_reason', { type: 'string' })]) }),
]

/** The namespace of a type's components, as EMQX names its schema modules. */
function namespace(role: IntegrationRole | 'v1', type: string): string {
  if (type === 'mqtt') return role === 'connector' ? 'connector_mqtt' : role === 'v1' ? 'bridge_mqtt' : 'bridge_mqtt_publisher'
  return `bridge_${type}`
}

/** The suffix of the post/put/get components of a role. */
const SUFFIX: Readonly<Record<IntegrationRole | 'v1', string>> = { connector: '_connector', action: '_bridge_v2', source: '_source', v1: '' }

class Components {
  readonly schemas: Record<string, SchemaProperty> = {}

  add(name: string, schema: SchemaProperty): SchemaProperty {
    this.schemas[name] = schema
    return refTo(name)
  }

  /** The post, put and get components of one type and role; answers the get component's name. */
  addApi(role: IntegrationRole | 'v1', type: string, v1Type: string, leaves: readonly Leaf[]): string {
    const ns = namespace(role, type)
    // parameters, resource_opts and ssl are components of their own, as in EMQX's schemas.
    const group = (key: string, object: SchemaProperty): SchemaProperty => {
      if (key === 'ssl') return this.add('emqx.ssl_client_opts', object)
      if (key === 'parameters' || key === 'resource_opts') return this.add(`${ns}.${role === 'v1' ? 'v1' : role}_${key}`, object)
      return object
    }
    const identity = [leaf('type', { type: 'enum', symbols: [v1Type] }, true), leaf('name', { type: 'string' }, true)]
    const suffix = SUFFIX[role]
    this.schemas[`${ns}.put${suffix}`] = objectOf([...COMMON, ...leaves], group)
    this.schemas[`${ns}.post${suffix}`] = objectOf([...identity, ...COMMON, ...leaves], group)
    this.schemas[`${ns}.get${suffix}`] = objectOf([...identity, ...COMMON, ...leaves, ...STATUS], group)
    return `${ns}.get${suffix}`
  }
}

/** A type's fields for a role, with `connector` for actions and sources (the form picks it apart). */
function roleLeaves(role: IntegrationRole, type: string): Leaf[] | undefined {
  const fields = formFields(role, type)
  if (!fields) return undefined
  return role === 'connector' ? leavesOf(fields) : [leaf('connector', { type: 'string' }, true), ...leavesOf(fields)]
}

const anyOf = (names: readonly string[]): SchemaProperty => ({ oneOf: names.map(refTo) })
const listOf = (names: readonly string[]): SchemaProperty => ({ type: 'array', items: anyOf(names) })

/** The paths of one REST area: each with the schema of its 200 answers by method, `{}` when it has none. */
function crudPaths(root: string, names: readonly string[], extra: Record<string, Record<string, SchemaProperty>>): SchemaDocument['paths'] {
  return {
    [`/${root}`]: { get: listOf(names) },
    [`/${root}/:id`]: { get: anyOf(names), put: anyOf(names) },
    [`/${root}/:id/enable/:enable`]: {},
    [`/${root}/:id/:operation`]: {},
    [`/nodes/:node/${root}/:id/:operation`]: {},
    ...extra,
  }
}

const METRICS: SchemaProperty = { type: 'object', properties: { metrics: { type: 'object' }, node_metrics: { type: 'array', items: { type: 'object' } } } }

function bridgeKindPaths(root: 'actions' | 'sources', names: readonly string[], types: readonly string[]): SchemaDocument['paths'] {
  const one = root.slice(0, -1)
  return crudPaths(root, names, {
    [`/${root}/:id/metrics`]: { get: METRICS },
    [`/${root}/:id/metrics/reset`]: {},
    [`/${root}_probe`]: {},
    [`/${one}_types`]: { get: { type: 'array', items: { type: 'enum', symbols: [...types] } } },
    [`/${root}_summary`]: { get: { type: 'array', items: { type: 'object' } } },
  })
}

/** The resource options of a connector and its action together, each once (a v1 bridge's `resource_opts`). */
const resourceFields = (...roles: ReadonlyArray<readonly IntegrationField[]>): IntegrationField[] =>
  roles.flat().filter((field, index, all) => field.path.startsWith('resource_opts.') && all.findIndex((other) => other.path === field.path) === index)

/** The v1 webhook: the connector's fields and the action's parameters side by side (emqx_bridge_http_schema "config"). */
function webhookLeaves(): Leaf[] | undefined {
  const connector = formFields('connector', 'http')
  const action = formFields('action', 'http')
  if (!connector || !action) return undefined
  const own = connector.filter((field) => !field.path.startsWith('resource_opts.'))
  const hoisted = action.filter((field) => field.path.startsWith('parameters.') && !['parameters.path', 'parameters.headers'].includes(field.path)).map((field) => ({ ...field, path: field.path.slice('parameters.'.length) }))
  return [...leavesOf(own), ...leavesOf(hoisted), leaf('local_topic', { type: 'string' }), ...leavesOf(resourceFields(connector, action))]
}

/** The v1 MQTT bridge: the connector's fields with `ingress` and `egress` (emqx_bridge_mqtt_connector_schema "config"). */
function mqttV1Leaves(): Leaf[] | undefined {
  const connector = formFields('connector', 'mqtt')
  const action = formFields('action', 'mqtt')
  const source = formFields('source', 'mqtt')
  if (!connector || !action || !source) return undefined
  const own = connector.filter((field) => field.path !== 'pool_size' && !field.path.startsWith('resource_opts.'))
  const poolSize = connector.find((field) => field.path === 'pool_size')
  const message = action.filter((field) => field.path.startsWith('parameters.')).map((field) => ({ ...field, required: false, path: field.path.slice('parameters.'.length) }))
  const remoteIn = source.filter((field) => ['parameters.topic', 'parameters.qos'].includes(field.path)).map((field) => ({ ...field, path: field.path.slice('parameters.'.length) }))
  const under = (prefix: string, fields: readonly IntegrationField[]) => leavesOf(fields.map((field) => ({ ...field, path: `${prefix}.${field.path}` })))
  const pool = poolSize ? [poolSize] : []
  return [
    ...leavesOf(own),
    ...under('ingress', pool),
    ...under('ingress.remote', remoteIn),
    ...under('ingress.local', message),
    ...under('egress', pool),
    leaf('egress.local.topic', { type: 'string' }),
    ...under('egress.remote', message.map((field) => (field.path === 'topic' ? { ...field, required: true } : field))),
    ...leavesOf(resourceFields(connector, action)),
  ]
}

/** The document of a name; `types` are the types this server offers for each role (`/connector_types`, `/action_types`, `/source_types`). */
export function schemaDocument(name: Exclude<SchemaName, 'hotconf'>, types: Readonly<Record<IntegrationRole, readonly string[]>>): SchemaDocument {
  const components = new Components()
  const build = (role: IntegrationRole) =>
    types[role].flatMap((type) => {
      const leaves = roleLeaves(role, type)
      return leaves ? [components.addApi(role, type, type, leaves)] : []
    })
  let paths: SchemaDocument['paths']
  if (name === 'connectors') {
    paths = crudPaths('connectors', build('connector'), { '/connectors_probe': {} })
  } else if (name === 'actions') {
    const actions = build('action')
    const sources = build('source')
    paths = { ...bridgeKindPaths('actions', actions, types.action), ...bridgeKindPaths('sources', sources, types.source) }
  } else {
    const names: string[] = []
    const webhook = types.action.includes('http') ? webhookLeaves() : undefined
    if (webhook) names.push(components.addApi('v1', 'http', 'webhook', webhook))
    const mqtt = types.action.includes('mqtt') && types.source.includes('mqtt') ? mqttV1Leaves() : undefined
    if (mqtt) names.push(components.addApi('v1', 'mqtt', 'mqtt', mqtt))
    paths = crudPaths('bridges', names, { '/bridges/:id/metrics': { get: METRICS }, '/bridges/:id/metrics/reset': {}, '/bridges_probe': {} })
  }
  return { info: { title: SCHEMA_TITLES[name], version: SCHEMA_VERSION }, paths, components: { schemas: components.schemas } }
}
