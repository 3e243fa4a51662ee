// The http source: each check is a request to the operator's server, with placeholders filled in
// the URL, headers and body; the answer is read as EMQX's emqx_authz_http reads it: 204 allows, 200
// with `{"result": "allow" | "deny" | "ignore"}` (JSON or a form) decides, any other status is no
// match, and a request that fails or times out is `ignore`.
import * as v from 'valibot'
import type { HttpSourceBody } from '../../../contract/authz.ts'
import { parseDuration } from '../../../contract/units.ts'
import type { AuthzAction, AuthzDetail, ClientInfo } from '../../broker/hooks.ts'
import { plainAddress } from '../../broker/listeners.ts'
import { AUTHZ_HTTP_VARS, parseTemplate, renderTemplate as renderText } from '../../backends/template.ts'
import { RateMeter } from '../../metrics/rate-meter.ts'
import { RATE_TICK_MS, type ResourceMetrics, type SourceAnswer, type SourceRunner } from './source.ts'

export type HttpSourceConfig = v.InferOutput<typeof HttpSourceBody>

/** EMQX's default headers of an http source (`get` has no content-type). */
export function defaultHttpHeaders(method: 'get' | 'post'): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'cache-control': 'no-cache', connection: 'keep-alive', 'keep-alive': 'timeout=30, max=1000' }
  if (method === 'post') headers['content-type'] = 'application/json'
  return headers
}

/** Hop-by-hop headers fetch manages itself and refuses to be given. */
const FETCH_MANAGED = new Set(['connection', 'keep-alive', 'content-length', 'host', 'transfer-encoding'])

/** The values a request's placeholders take for one check (EMQX's http authz variables). */
export function httpVariables(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): Record<string, string> {
  return {
    username: info.username ?? '',
    clientid: info.clientid,
    peerhost: plainAddress(info.peerhost),
    proto_name: info.protoVer === 3 ? 'MQIsdp' : 'MQTT',
    mountpoint: info.mountpoint ?? '',
    topic,
    action,
    // Legacy: 1 subscribe, 2 publish.
    access: action === 'subscribe' ? '1' : '2',
    qos: String(detail.qos),
    retain: String(detail.retain),
    cert_subject: '',
    cert_common_name: '',
    cert_pem: '',
    // `${client_attrs.NAME}`: the template looks a dotted name up whole first.
    ...Object.fromEntries(Object.entries(info.clientAttrs ?? {}).map(([name, value]) => [`client_attrs.${name}`, value])),
  }
}

/** Fills in the placeholders (EMQX's template language, server/backends/template.ts); one EMQX does not allow in a request is left as written. */
function renderTemplate(text: string, vars: Record<string, string>, encode?: (value: string) => string): string {
  return renderText(parseTemplate(text, AUTHZ_HTTP_VARS), vars, encode)
}

function renderBody(body: Record<string, unknown>, vars: Record<string, string>): Record<string, string> {
  const rendered: Record<string, string> = {}
  for (const [key, value] of Object.entries(body)) rendered[renderTemplate(key, vars)] = renderTemplate(typeof value === 'string' ? value : JSON.stringify(value), vars)
  return rendered
}

/** `allow` | `deny` | `ignore` from a 200's body; undefined when it says none of them. */
function resultOf(contentType: string, text: string): 'allow' | 'deny' | 'ignore' | undefined {
  let result: unknown
  if (contentType.startsWith('application/x-www-form-urlencoded')) result = new URLSearchParams(text).get('result')
  else if (contentType.startsWith('application/json')) {
    try {
      result = (JSON.parse(text) as { result?: unknown } | null)?.result
    } catch {
      return undefined
    }
  } else return undefined
  return result === 'allow' || result === 'deny' || result === 'ignore' ? result : undefined
}

export class HttpSource implements SourceRunner {
  private readonly config: HttpSourceConfig
  private readonly timeoutMs: number
  private reachable = true
  private readonly counts = { matched: 0, success: 0, failed: 0 }
  private readonly meter = new RateMeter()

  constructor(config: HttpSourceConfig) {
    this.config = config
    this.timeoutMs = parseDuration(config.request_timeout) ?? 30_000
  }

  async authorize(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): Promise<SourceAnswer> {
    const { method, url, body = {} } = this.config
    const vars = httpVariables(info, action, topic, detail)
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(this.config.headers ?? defaultHttpHeaders(method))) {
      if (!FETCH_MANAGED.has(name.toLowerCase())) headers[name.toLowerCase()] = renderTemplate(value, vars)
    }
    const target = new URL(renderTemplate(url, vars, encodeURIComponent))
    const fields = renderBody(body, vars)
    let payload: string | undefined
    if (method === 'get') {
      for (const [key, value] of Object.entries(fields)) target.searchParams.append(key, value)
    } else {
      const form = (headers['content-type'] ?? 'application/json').startsWith('application/x-www-form-urlencoded')
      payload = form ? new URLSearchParams(fields).toString() : JSON.stringify(fields)
    }
    this.counts.matched++
    let response: Response
    let text: string
    try {
      response = await fetch(target, { method: method.toUpperCase(), headers, body: payload, signal: AbortSignal.timeout(this.timeoutMs) })
      text = await response.text()
    } catch {
      this.reachable = false
      this.counts.failed++
      return 'ignore'
    }
    this.reachable = true
    this.counts.success++
    if (response.status === 204) return 'allow'
    if (response.status !== 200) return undefined
    return resultOf(response.headers.get('content-type') ?? '', text)
  }

  status(): 'connected' | 'disconnected' {
    return this.reachable ? 'connected' : 'disconnected'
  }

  tick(): void {
    this.meter.tick(this.counts.matched, RATE_TICK_MS)
  }

  resourceMetrics(): ResourceMetrics {
    return { ...this.counts, ...this.meter.snapshot() }
  }
}
