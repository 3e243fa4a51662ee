// `${name}` placeholders of authentication templates (HTTP URL, headers and body; JWT verify_claims),
// rendered from the client's credential in EMQX's template language (server/backends/template.ts):
// an absent value is empty text, `${$}` is a dollar, a name the context does not allow stays as written.
import { parseDeep, parseTemplate, renderDeep as renderDeepTemplate, renderTemplate } from '../../backends/template.ts'
import type { Credential } from './provider.ts'

/** The names a credential offers, as EMQX's authentication contexts call them. */
const NAMES = ['username', 'clientid', 'password', 'peerhost', 'peerport', 'cert_common_name', 'cert_subject', 'cert_pem', 'zone', 'listener', 'client_attrs.*']

function valuesOf(credential: Credential): Record<string, unknown> {
  // The embedded broker has one zone and no TLS client certificates yet.
  return { ...credential, cert_pem: undefined, zone: 'default' }
}

/** Renders a template; `allowed` limits the names (others stay as written), `encode` escapes values (URLs). */
export function render(template: string, credential: Credential, options: { allowed?: readonly string[]; encode?: (value: string) => string } = {}): string {
  return renderTemplate(parseTemplate(template, options.allowed ?? NAMES), valuesOf(credential), options.encode)
}

/** Renders every string in a JSON-like value (HTTP bodies may nest objects). */
export function renderDeep(value: unknown, credential: Credential): unknown {
  return renderDeepTemplate(parseDeep(value, NAMES), valuesOf(credential))
}
