// Authentication and authorization of MQTT clients, as EMQX's emqx_access_control: runs the hook
// chains, counts the outcome, fires the completion events and keeps the authorization cache. Each
// answers at once when every callback does (built-in rules, a cache hit), and with a promise when a
// backend answers later, so the common case never allocates a promise per message.
import { AuthzCache } from './authz-cache.ts'
import { isPromise, NO_AUTHZ_DETAIL, type AuthDecision, type AuthzAction, type AuthzDetail, type EnhancedAuth, type AuthzAnswer, type AuthzResult, type ClientInfo, type Hooks, type MaybePromise } from './hooks.ts'
import type { Metrics } from './metrics.ts'
import type { AccessTracer } from './trace.ts'
import { reasonName, RC } from './reason-codes.ts'
import { log } from '../log/index.ts'

export interface AuthzSettings {
  /** What a check no source answered gives (EMQX `authorization.no_match`). */
  noMatch: AuthzResult
  /** What a refused PUBLISH does to the client (EMQX `authorization.deny_action`). */
  denyAction: 'ignore' | 'disconnect'
}

/** The reason code each refusal implies (MQTT 5 numbering). */
const REFUSAL_CODES: Record<Extract<AuthDecision, { result: 'deny' }>['reason'], number> = {
  bad_username_or_password: RC.BAD_USERNAME_OR_PASSWORD,
  not_authorized: RC.NOT_AUTHORIZED,
  banned: RC.BANNED,
  server_unavailable: RC.SERVER_UNAVAILABLE,
  server_busy: RC.SERVER_BUSY,
  client_identifier_not_valid: RC.CLIENT_IDENTIFIER_NOT_VALID,
}

/** A callback that failed (threw, or its promise rejected): the chain is not an open door. */
const AUTHN_FAILED: AuthDecision = { result: 'deny', reason: 'server_unavailable' }
const AUTHZ_FAILED: AuthzAnswer = { result: 'deny', source: 'error' }
// Made once: no_match is the answer to nearly every check while no source is configured.
const NO_MATCH_ALLOW: AuthzAnswer = { result: 'allow', source: 'default' }
const NO_MATCH_DENY: AuthzAnswer = { result: 'deny', source: 'default' }

export class AccessControl {
  readonly cache = new AuthzCache()
  settings: AuthzSettings = { noMatch: 'allow', denyAction: 'ignore' }
  /** Authentication's and each authorization source's answers go here while a log trace runs (set by the trace hub). */
  tracer: AccessTracer | undefined = undefined
  private readonly hooks: Hooks
  private readonly metrics: Metrics

  constructor(hooks: Hooks, metrics: Metrics) {
    this.hooks = hooks
    this.metrics = metrics
  }

  /**
   * Runs the `client.authenticate` chain for a CONNECT. Undefined means no authenticator answered
   * (anonymous access, as EMQX allows with an empty chain). An allowed client's `isSuperuser` is set.
   */
  authenticate(info: ClientInfo, password: Buffer | undefined, enhanced?: EnhancedAuth): MaybePromise<AuthDecision | undefined> {
    this.metrics.inc('client.authenticate')
    let decision: MaybePromise<AuthDecision | undefined>
    try {
      decision = this.hooks.authenticate(info, password, enhanced)
    } catch (error) {
      log.error({ tag: 'AUTHN', clientid: info.clientid, err: error }, 'authentication_hook_failed')
      decision = AUTHN_FAILED
    }
    if (!isPromise(decision)) return this.authenticated(info, decision)
    return decision.then(
      (later) => this.authenticated(info, later),
      (error: unknown) => {
        log.error({ tag: 'AUTHN', clientid: info.clientid, err: error }, 'authentication_hook_failed')
        return this.authenticated(info, AUTHN_FAILED)
      },
    )
  }

  private authenticated(info: ClientInfo, decision: AuthDecision | undefined): AuthDecision | undefined {
    // Enhanced authentication takes another round: nothing is decided yet.
    if (decision?.result === 'continue') return decision
    if (decision?.result === 'deny') {
      this.metrics.inc('authentication.failure')
      log.warning({ tag: 'AUTHN', clientid: info.clientid, username: info.username, reason: decision.reason }, 'authentication_failure')
      // EMQX refuses a banned client before authentication: no authentication event for it.
      if (decision.reason !== 'banned') {
        this.hooks.run('client.check_authn_complete', info, { reasonCode: reasonName(refusalCode(decision)), isSuperuser: false, isAnonymous: false })
      }
      return decision
    }
    if (!decision) {
      this.metrics.inc('client.auth.anonymous')
      this.metrics.inc('authentication.success.anonymous')
    }
    this.metrics.inc('authentication.success')
    info.isSuperuser = decision?.isSuperuser ?? false
    this.hooks.run('client.check_authn_complete', info, { reasonCode: 'success', isSuperuser: info.isSuperuser, isAnonymous: !decision })
    // emqx_channel:merge_auth_result: the authenticator's attributes over the client's own.
    if (decision?.clientAttrs) info.clientAttrs = { ...info.clientAttrs, ...decision.clientAttrs }
    return decision
  }

  /**
   * Decides whether a client may publish to or subscribe to `topic`: true or false at once when
   * every source answers at once, a promise of it when one answers later.
   */
  authorize(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail = NO_AUTHZ_DETAIL): MaybePromise<boolean> {
    // As EMQX: a delayed publish is authorized on the topic it will be published to.
    if (topic.startsWith('$delayed/')) {
      const real = delayedTopic(topic)
      if (real === undefined) {
        this.metrics.inc('authorization.deny')
        return false
      }
      topic = real
    }
    const cached = this.cache.covers(topic) ? this.cache.get(info.clientid, action, topic, undefined, detail) : undefined
    if (cached !== undefined) {
      this.metrics.inc('authorization.cache_hit')
      return this.decided(info, action, topic, { result: cached, source: 'cache' }, detail)
    }
    if (this.cache.settings.enable) this.metrics.inc('authorization.cache_miss')
    this.metrics.inc('client.authorize')
    if (info.isSuperuser) {
      this.metrics.inc('authorization.superuser')
      return this.decided(info, action, topic, { result: 'allow', source: 'superuser' }, detail)
    }
    // 5.8 asks its built-in client_info source first: a client with no ACL of its own (the only
    // kind here) is ignored by it, and a trace writes so.
    const tracer = this.tracer
    if (tracer !== undefined) tracer.authzSource(info, action, topic, detail, 'client_info', 'ignore')
    let answer: MaybePromise<AuthzAnswer | undefined>
    try {
      answer = this.hooks.authorize(info, action, topic, detail)
    } catch (error) {
      log.error({ tag: 'AUTHZ', clientid: info.clientid, topic, err: error }, 'authorization_hook_failed')
      return this.decided(info, action, topic, AUTHZ_FAILED, detail)
    }
    if (!isPromise(answer)) return this.decided(info, action, topic, this.matched(answer), detail)
    return answer.then(
      (later) => this.decided(info, action, topic, this.matched(later), detail),
      (error: unknown) => {
        log.error({ tag: 'AUTHZ', clientid: info.clientid, topic, err: error }, 'authorization_hook_failed')
        return this.decided(info, action, topic, AUTHZ_FAILED, detail)
      },
    )
  }

  /** Counts what the sources said; no answer at all is `no_match`. */
  private matched(answer: AuthzAnswer | undefined): AuthzAnswer {
    if (answer === undefined) {
      this.metrics.inc('authorization.nomatch')
      return this.settings.noMatch === 'allow' ? NO_MATCH_ALLOW : NO_MATCH_DENY
    }
    this.metrics.inc(answer.result === 'allow' ? 'authorization.matched.allow' : 'authorization.matched.deny')
    return answer
  }

  private decided(info: ClientInfo, action: AuthzAction, topic: string, answer: AuthzAnswer, detail: AuthzDetail): boolean {
    const { result, source } = answer
    this.metrics.inc(result === 'allow' ? 'authorization.allow' : 'authorization.deny')
    if (source !== 'cache' && source !== 'error' && this.cache.covers(topic)) this.cache.put(info.clientid, action, topic, result, undefined, detail)
    this.hooks.run('client.check_authz_complete', info, action, topic, result, source, detail)
    if (result !== 'allow') log.info({ tag: 'AUTHZ', clientid: info.clientid, action, topic, source }, 'authorization_permission_denied')
    return result === 'allow'
  }
}

/** The reason code of an authentication refusal (MQTT 5 numbering). */
export function refusalCode(decision: Extract<AuthDecision, { result: 'deny' }>): number {
  return decision.reasonCode ?? REFUSAL_CODES[decision.reason] ?? RC.NOT_AUTHORIZED
}

/** `$delayed/<seconds>/<topic>` -> `<topic>`; undefined when malformed. */
function delayedTopic(topic: string): string | undefined {
  const rest = topic.slice('$delayed/'.length)
  const slash = rest.indexOf('/')
  return slash < 0 ? undefined : rest.slice(slash + 1)
}
