// The fields of each authenticator's form, as EMQX names them (a dotted path for nested ones) with
// EMQX's defaults, which appear when, and the conversions between a config and the form's text values.
import type { FieldError } from '../../../commands/args.ts'

export type AuthnFieldKind = 'text' | 'secret' | 'number' | 'boolean' | 'select' | 'json' | 'textarea' | 'duration'
export type AuthnValues = Record<string, string>

export interface AuthnField {
  /** The config path: `password_hash_algorithm.name`. */
  path: string
  kind: AuthnFieldKind
  default: string
  options?: readonly string[]
  required?: boolean
  /** i18n key of the help under the field. */
  description?: string
  /** Shown (and sent) only when this holds for the form's values. */
  when?(values: AuthnValues): boolean
}

const SIMPLE = ['plain', 'md5', 'sha', 'sha256', 'sha512']
const isSimple = (values: AuthnValues) => SIMPLE.includes(values['password_hash_algorithm.name'] ?? '')
const hashIs = (name: string) => (values: AuthnValues) => values['password_hash_algorithm.name'] === name

/** The password hash; only the built-in database makes bcrypt hashes, so only it has salt_rounds. */
function hashFields(builtIn: boolean, saltPosition: string): AuthnField[] {
  return [
    { path: 'password_hash_algorithm.name', kind: 'select', default: 'sha256', options: [...SIMPLE, 'bcrypt', 'pbkdf2'] },
    { path: 'password_hash_algorithm.salt_position', kind: 'select', default: saltPosition, options: ['disable', 'prefix', 'suffix'], when: isSimple },
    ...(builtIn ? [{ path: 'password_hash_algorithm.salt_rounds', kind: 'number', default: '10', when: hashIs('bcrypt') } satisfies AuthnField] : []),
    { path: 'password_hash_algorithm.mac_fun', kind: 'select', default: 'sha256', options: ['sha', 'sha224', 'sha256', 'sha384', 'sha512'], when: hashIs('pbkdf2') },
    { path: 'password_hash_algorithm.iterations', kind: 'number', default: '4096', when: hashIs('pbkdf2') },
    { path: 'password_hash_algorithm.dk_length', kind: 'number', default: '', when: hashIs('pbkdf2') },
  ]
}

const connection = (server: string, username: string): AuthnField[] => [
  { path: 'server', kind: 'text', default: server, required: true },
  { path: 'database', kind: 'text', default: '', required: true },
  { path: 'username', kind: 'text', default: username },
  { path: 'password', kind: 'secret', default: '' },
  { path: 'pool_size', kind: 'number', default: '8' },
]

const SQL_QUERY = 'SELECT password_hash, salt, is_superuser FROM mqtt_user WHERE username = ${username} LIMIT 1'
const isHmac = (values: AuthnValues) => values.use_jwks !== 'true' && values.algorithm !== 'public-key'
const isPublicKey = (values: AuthnValues) => values.use_jwks !== 'true' && values.algorithm === 'public-key'
const isJwks = (values: AuthnValues) => values.use_jwks === 'true'

/** `password_based:mysql`, `jwt`... → its fields. */
export const AUTHN_FORMS: Record<string, AuthnField[]> = {
  'password_based:built_in_database': [
    { path: 'user_id_type', kind: 'select', default: 'username', options: ['username', 'clientid'] },
    ...hashFields(true, 'suffix'),
  ],
  'password_based:mysql': [
    ...connection('127.0.0.1:3306', 'root'),
    { path: 'query', kind: 'textarea', default: SQL_QUERY, required: true, description: 'authn.hint.placeholders' },
    { path: 'query_timeout', kind: 'duration', default: '5s' },
    ...hashFields(false, 'suffix'),
  ],
  'password_based:postgresql': [
    ...connection('127.0.0.1:5432', 'root'),
    { path: 'query', kind: 'textarea', default: SQL_QUERY, required: true, description: 'authn.hint.placeholders' },
    ...hashFields(false, 'suffix'),
  ],
  'password_based:mongodb': [
    { path: 'mongo_type', kind: 'select', default: 'single', options: ['single', 'rs', 'sharded'] },
    { path: 'server', kind: 'text', default: '127.0.0.1:27017', required: true, when: (values) => values.mongo_type === 'single' },
    { path: 'servers', kind: 'text', default: '127.0.0.1:27017', required: true, when: (values) => values.mongo_type !== 'single' },
    { path: 'replica_set_name', kind: 'text', default: '', when: (values) => values.mongo_type === 'rs' },
    { path: 'database', kind: 'text', default: '', required: true },
    { path: 'collection', kind: 'text', default: 'users', required: true },
    { path: 'filter', kind: 'json', default: '{"username": "${username}"}' },
    { path: 'username', kind: 'text', default: '' },
    { path: 'password', kind: 'secret', default: '' },
    { path: 'password_hash_field', kind: 'text', default: 'password_hash' },
    { path: 'salt_field', kind: 'text', default: 'salt' },
    { path: 'is_superuser_field', kind: 'text', default: 'is_superuser' },
    ...hashFields(false, 'suffix'),
  ],
  'password_based:redis': [
    { path: 'redis_type', kind: 'select', default: 'single', options: ['single', 'sentinel', 'cluster'] },
    { path: 'server', kind: 'text', default: '127.0.0.1:6379', required: true, when: (values) => values.redis_type === 'single' },
    { path: 'servers', kind: 'text', default: '127.0.0.1:6379', required: true, when: (values) => values.redis_type !== 'single' },
    { path: 'sentinel', kind: 'text', default: '', when: (values) => values.redis_type === 'sentinel' },
    { path: 'database', kind: 'number', default: '0', when: (values) => values.redis_type !== 'cluster' },
    { path: 'password', kind: 'secret', default: '' },
    { path: 'cmd', kind: 'text', default: 'HMGET mqtt_user:${username} password_hash salt is_superuser', required: true, description: 'authn.hint.placeholders' },
    ...hashFields(false, 'suffix'),
  ],
  'password_based:http': [
    { path: 'method', kind: 'select', default: 'post', options: ['post', 'get'] },
    { path: 'url', kind: 'text', default: 'http://127.0.0.1:8080', required: true },
    { path: 'headers', kind: 'json', default: '{"content-type": "application/json"}' },
    { path: 'body', kind: 'json', default: '{"username": "${username}", "password": "${password}"}' },
    { path: 'connect_timeout', kind: 'duration', default: '15s' },
    { path: 'request_timeout', kind: 'duration', default: '5s' },
    { path: 'pool_size', kind: 'number', default: '8' },
    { path: 'enable_pipelining', kind: 'number', default: '100' },
  ],
  'password_based:ldap': [
    { path: 'server', kind: 'text', default: '127.0.0.1:389', required: true },
    { path: 'username', kind: 'text', default: '', required: true },
    { path: 'password', kind: 'secret', default: '' },
    { path: 'base_dn', kind: 'text', default: '', required: true },
    { path: 'filter', kind: 'text', default: '(objectClass=mqttUser)' },
    { path: 'method.type', kind: 'select', default: 'hash', options: ['hash', 'bind'] },
    { path: 'method.password_attribute', kind: 'text', default: 'userPassword', when: (values) => values['method.type'] !== 'bind' },
    { path: 'method.is_superuser_attribute', kind: 'text', default: 'isSuperuser', when: (values) => values['method.type'] !== 'bind' },
    { path: 'method.bind_password', kind: 'text', default: '${password}', when: (values) => values['method.type'] === 'bind' },
    { path: 'pool_size', kind: 'number', default: '8' },
  ],
  jwt: [
    { path: 'use_jwks', kind: 'boolean', default: 'false' },
    { path: 'algorithm', kind: 'select', default: 'hmac-based', options: ['hmac-based', 'public-key'], when: (values) => !isJwks(values) },
    { path: 'secret', kind: 'secret', default: '', required: true, when: isHmac },
    { path: 'secret_base64_encoded', kind: 'boolean', default: 'false', when: isHmac },
    { path: 'public_key', kind: 'textarea', default: '', required: true, when: isPublicKey, description: 'authn.hint.publicKey' },
    { path: 'endpoint', kind: 'text', default: '', required: true, when: isJwks },
    { path: 'refresh_interval', kind: 'number', default: '300', when: isJwks },
    { path: 'from', kind: 'select', default: 'password', options: ['password', 'username'] },
    { path: 'verify_claims', kind: 'json', default: '{}' },
    { path: 'acl_claim_name', kind: 'text', default: 'acl' },
    { path: 'disconnect_after_expire', kind: 'boolean', default: 'true' },
  ],
  'scram:built_in_database': [
    { path: 'algorithm', kind: 'select', default: 'sha256', options: ['sha256', 'sha512'] },
    { path: 'iteration_count', kind: 'number', default: '4096' },
  ],
}

export function formFields(id: string): AuthnField[] {
  return AUTHN_FORMS[id] ?? []
}

export const visibleFields = (fields: AuthnField[], values: AuthnValues) => fields.filter((field) => field.when?.(values) ?? true)

export function defaultValues(fields: AuthnField[]): AuthnValues {
  return Object.fromEntries(fields.map((field) => [field.path, field.default]))
}

/** A stored authenticator's values for its form (a field it lacks keeps its default). */
export function valuesOf(fields: AuthnField[], config: Record<string, unknown>): AuthnValues {
  const values = defaultValues(fields)
  for (const field of fields) {
    const value = field.path.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), config)
    if (value === undefined || value === null) continue
    values[field.path] = field.kind === 'json' ? JSON.stringify(value, null, 2) : String(value)
  }
  return values
}

/** The form's shown fields as a config; a field error for each value that is missing or not what its kind needs. */
export function configOf(fields: AuthnField[], values: AuthnValues): { config: Record<string, unknown>; errors: FieldError[] } {
  const config: Record<string, unknown> = {}
  const errors: FieldError[] = []
  for (const field of visibleFields(fields, values)) {
    const text = (values[field.path] ?? '').trim()
    if (text === '') {
      if (field.required) errors.push({ field: field.path, key: 'err.required' })
      continue
    }
    let value: unknown = text
    if (field.kind === 'number') {
      value = Number(text)
      if (!Number.isFinite(value)) errors.push({ field: field.path, key: 'err.number' })
    } else if (field.kind === 'boolean') value = text === 'true'
    else if (field.kind === 'json') {
      try {
        value = JSON.parse(text)
      } catch {
        errors.push({ field: field.path, key: 'err.json' })
      }
    } else if (field.kind === 'secret' || field.kind === 'textarea') value = values[field.path]
    setPath(config, field.path, value)
  }
  return { config, errors }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown) {
  const keys = path.split('.')
  let node = target
  for (const key of keys.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object') node[key] = {}
    node = node[key] as Record<string, unknown>
  }
  node[keys[keys.length - 1]] = value
}
