// `${name}` placeholders of authentication templates (HTTP URL, headers and body; JWT verify_claims),
// rendered from the client's credential as EMQX renders them: an absent value is empty text.
import type { Credential } from './provider.ts'

const PLACEHOLDER = /\$\{([a-z_]+)\}/g

const VALUES: Record<string, (credential: Credential) => string | number | undefined> = {
  username: (c) => c.username,
  clientid: (c) => c.clientid,
  password: (c) => c.password,
  peerhost: (c) => c.peerhost,
  peerport: (c) => c.peerport,
  cert_common_name: (c) => c.cert_common_name,
  cert_subject: (c) => c.cert_subject,
  cert_pem: () => undefined,
  zone: () => 'default',
  listener: (c) => c.listener,
}

/** Renders a template; `allowed` limits the names (others stay as written), `encode` escapes values (URLs). */
export function render(template: string, credential: Credential, options: { allowed?: readonly string[]; encode?: (value: string) => string } = {}): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = VALUES[name]
    if (!value || (options.allowed && !options.allowed.includes(name))) return whole
    const text = String(value(credential) ?? '')
    return options.encode ? options.encode(text) : text
  })
}

/** Renders every string in a JSON-like value (HTTP bodies may nest objects). */
export function renderDeep(value: unknown, credential: Credential): unknown {
  if (typeof value === 'string') return render(value, credential)
  if (Array.isArray(value)) return value.map((item) => renderDeep(item, credential))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [render(key, credential), renderDeep(item, credential)]))
  return value
}
