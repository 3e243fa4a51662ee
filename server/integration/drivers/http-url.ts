// The HTTP connector's URL as EMQX 5.8.9 reads it (emqx_connector_resource:parse_url/1 over the
// loose emqx_utils_uri parser, so `${var}` in the path survives): scheme, host and port make the
// pool's origin; the path is a template rendered for every request and the action's path is joined
// to it (emqx_bridge_http_connector:join_paths/2). EMQX keeps only the path: a query in the
// connector's URL is dropped (the action's path may carry one).

export interface RequestBase {
  scheme: 'http' | 'https'
  /** The host as a socket takes it (an IPv6 address without brackets). */
  host: string
  port: number
  /** `http://host:port`, brackets around an IPv6 host, for the pool. */
  origin: string
}

const URI = /^(?:([^:/?#]+):)?(\/\/[^/?#]*)?([^?#]*)(\?[^#]*)?(#.*)?$/
const AUTHORITY = /^(.*@)?(?:\[([a-z\d.:]*)\]|([^:]*?)|(.*?))(:\d+)?$/i
const HOSTNAME = /^[a-z\d]([a-z\d-]*[a-z\d])?(\.[a-z\d]([a-z\d-]*[a-z\d])?)*\.?$/i
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/

/** The URL's request base and path template; throws EMQX's validation message. */
export function parseHttpUrl(url: string): { base: RequestBase; path: string } {
  const [, scheme, authority, path, , fragment] = URI.exec(url) ?? []
  if (!scheme) throw new Error(`Missing scheme in URL: ${url}`)
  if (!authority) throw new Error(`Missing host in URL: ${url}`)
  const [, userinfo, ipv6, regular, loose, portText] = AUTHORITY.exec(authority.slice(2)) ?? []
  if (userinfo) throw new Error(`Userinfo is not supported in URL: ${url}`)
  if (fragment) throw new Error(`Fragments are not supported in URL: ${url}`)
  const invalid = (details: string) => new Error(`Invalid URL: ${url}, details: ${details}`)
  const lower = scheme.toLowerCase()
  if (lower !== 'http' && lower !== 'https') throw invalid(`unsupported_scheme ${scheme}`)
  const host = ipv6 ?? regular ?? loose ?? ''
  if (host.includes('${') || (loose ?? '').includes('${')) throw invalid('URL templates may use variables in the path, not in host or port')
  if (loose !== undefined || host === '' || !(ipv6 !== undefined || IPV4.test(host) || HOSTNAME.test(host))) throw invalid(`invalid host ${host}`)
  const port = portText ? Number(portText.slice(1)) : lower === 'https' ? 443 : 80
  if (port < 1 || port > 65535) throw invalid(`invalid port ${port}`)
  const hostInUrl = ipv6 !== undefined ? `[${host}]` : host
  return { base: { scheme: lower, host, port, origin: `${lower}://${hostInUrl}:${port}` }, path: path ?? '' }
}

/** emqx_bridge_http_connector:join_paths/2: one slash between, none added before a query. */
export function joinPaths(first: string, second: string): string {
  if (second.startsWith('?')) return first + second
  return `${first.endsWith('/') ? first.slice(0, -1) : first}/${second.startsWith('/') ? second.slice(1) : second}`
}
