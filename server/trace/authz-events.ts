// The authorization lines of a trace, as 5.8 writes them: each source's answer
// (emqx_authz:log_trace/6, a ?TRACE), a superuser's skipped check (emqx_authz:authorize/5), and the
// decision (emqx_access_control:log_result/4, a ?SLOG: debug when allowed, info for a refused
// PUBLISH, warning for a refused SUBSCRIBE), and the channel's refusal of a PUBLISH. A cached answer
// writes nothing, as in 5.8.
import type { AuthzAction, AuthzDetail, AuthzResult, ClientInfo } from '../broker/hooks.ts'
import type { AuthzSourceAnswer } from '../broker/trace.ts'
import type { TraceEvent } from './event.ts'

export const peername = (info: ClientInfo) => `${info.peerhost}:${info.peerport}`

// Made once: writing the action allocates nothing.
const QOS = [0, 1, 2] as const
const SUBSCRIBE = QOS.map((qos) => `SUBSCRIBE(Q${qos})`)
const PUBLISH = QOS.map((qos) => [`PUBLISH(Q${qos},R0)`, `PUBLISH(Q${qos},R1)`])

/** emqx_access_control:format_action/1: `SUBSCRIBE(Q1)`, `PUBLISH(Q1,R0)`. */
export function formatAction(action: AuthzAction, detail: AuthzDetail): string {
  return action === 'subscribe' ? SUBSCRIBE[detail.qos] : PUBLISH[detail.qos][detail.retain ? 1 : 0]
}

/** The module 5.8 registers for each source type (emqx_authz_source_registry). */
const MODULES: Record<string, string> = {
  client_info: 'emqx_authz_client_info',
  file: 'emqx_authz_file',
  built_in_database: 'emqx_authz_mnesia',
  http: 'emqx_authz_http',
  mongodb: 'emqx_authz_mongodb',
  mysql: 'emqx_authz_mysql',
  postgresql: 'emqx_authz_postgresql',
  redis: 'emqx_authz_redis',
  ldap: 'emqx_authz_ldap',
}

const SOURCE_MSGS: Record<AuthzSourceAnswer, string> = {
  allow: 'authorization_matched_allow',
  deny: 'authorization_matched_deny',
  ignore: 'authorization_module_ignore',
  nomatch: 'authorization_nomatch',
}

export function authzSourceEvent(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail, source: string, answer: AuthzSourceAnswer): TraceEvent {
  return {
    tag: 'AUTHZ',
    msg: SOURCE_MSGS[answer],
    clientid: info.clientid,
    peername: peername(info),
    username: info.username,
    topic,
    fields: { authorize_type: source, module: MODULES[source] ?? `emqx_authz_${source}`, username: info.username, action: formatAction(action, detail) },
  }
}

export function superuserEvent(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): TraceEvent {
  return { tag: 'AUTHZ', msg: 'authorization_skipped_as_superuser', clientid: info.clientid, peername: peername(info), username: info.username, topic, fields: { username: info.username, action: formatAction(action, detail) } }
}

/** format_from/1. */
function formatFrom(source: string): string {
  if (source === 'default') return "'authorization.no_match' config"
  if (source === 'unknown') return "'client.authorize' hook callback"
  return source
}

/** log_result/4: the topic is in the report, not the metadata, so a topic trace does not get it. */
export function permissionEvent(info: ClientInfo, action: AuthzAction, topic: string, result: AuthzResult, source: string, detail: AuthzDetail): TraceEvent {
  return {
    tag: 'AUTHZ',
    level: result === 'allow' ? 'debug' : action === 'publish' ? 'info' : 'warning',
    msg: result === 'allow' ? 'authorization_permission_allowed' : 'authorization_permission_denied',
    clientid: info.clientid,
    peername: peername(info),
    username: info.username,
    fields: { topic, action: formatAction(action, detail), source: formatFrom(source) },
  }
}

/** emqx_channel's refusal of a PUBLISH: the topic and tag are the line's metadata (a topic trace has it). */
export function publishRefusedEvent(info: ClientInfo, topic: string): TraceEvent {
  return {
    tag: 'AUTHZ',
    level: 'warning',
    msg: 'cannot_publish_to_topic_due_to_not_authorized',
    clientid: info.clientid,
    peername: peername(info),
    username: info.username,
    topic,
    fields: { reason: 'not_authorized' },
  }
}
