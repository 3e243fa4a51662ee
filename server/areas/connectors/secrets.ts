// Secrets as EMQX shows them (emqx_utils_redact 5.8.9): `******` in every answer, and `******` sent back
// keeps the stored value. A secret that is one placeholder (`${password}`) or a `file://` path is shown
// as it is; in a `headers` map the values of `authorization` and `proxy-authorization` are secrets.
import { SECRET_KEYS, SECRET_MASK } from '../../../contract/connectors.ts'

type Config = Record<string, unknown>
type IsSecret = (key: string) => boolean

const isObject = (value: unknown): value is Config => typeof value === 'object' && value !== null && !Array.isArray(value)

const secretKey: IsSecret = (key) => SECRET_KEYS.has(key)
/** check_is_sensitive_header/1: the header's name trimmed, in any case. */
const secretHeader: IsSecret = (key) => ['authorization', 'proxy-authorization'].includes(key.trim().toLowerCase())
/** is_redacted/3 in a headers map: a secret header or a secret key. */
const secretInHeaders: IsSecret = (key) => secretHeader(key) || secretKey(key)

/** redact_v/1: a value that is exactly one placeholder, or a file path, is no secret to hide. */
function masked(value: string): string {
  if (/^\$\{[^{}]+\}$/.test(value) || value.startsWith('file://')) return value
  return SECRET_MASK
}

function redactWith(config: Config, isSecret: IsSecret): Config {
  const out: Config = {}
  for (const [key, value] of Object.entries(config)) {
    if (key === 'headers' && isObject(value)) out[key] = redactWith(value, secretHeader)
    else if (isSecret(key) && typeof value === 'string' && value !== '') out[key] = masked(value)
    else out[key] = isObject(value) ? redactWith(value, secretKey) : value
  }
  return out
}

export function redact(config: Config): Config {
  return redactWith(config, secretKey)
}

function deobfuscateWith(given: Config, stored: Config, isSecret: IsSecret): Config {
  const out: Config = {}
  for (const [key, value] of Object.entries(given)) {
    const redacted = value === SECRET_MASK && isSecret(key)
    if (!(key in stored)) {
      // A mask with nothing behind it is not put into the config.
      if (!redacted) out[key] = value
      continue
    }
    const before = stored[key]
    if (isObject(value) && isObject(before)) out[key] = deobfuscateWith(value, before, key === 'headers' ? secretInHeaders : isSecret)
    else out[key] = redacted ? before : value
  }
  return out
}

/** `given` with each `******` of a secret replaced by what `stored` holds at the same place. */
export function deobfuscate(given: Config, stored: Config | undefined): Config {
  return stored ? deobfuscateWith(given, stored, secretKey) : given
}
