// The authentication chain, as EMQX's emqx_authn_chains: authenticators asked in order on the
// broker's `client.authenticate` hook. One that does not know the client (`ignore`) passes to the
// next; one that fails (throws, rejects) counts as `nomatch` and passes too; the end of a chain
// that has enabled authenticators refuses with not_authorized, and a chain with none enabled lets
// every client in anonymously. Configs and their order persist and are restored at start.
import { authenticatorId, type AuthenticatorConfig, type AuthnStatus, type AuthnStatusAnswer, type AuthnTest, type Position } from '../../../contract/authn.ts'
import { ApiError } from '../../../contract/api-error.ts'
import type { Broker } from '../../broker/broker.ts'
import { HP } from '../../broker/hook-priorities.ts'
import { RC } from '../../broker/reason-codes.ts'
import { isPromise, type AuthDecision, type ClientInfo, type EnhancedAuth, type MaybePromise } from '../../broker/hooks.ts'
import { readStoredConfig } from './configs.ts'
import { AuthnCounters } from './metrics.ts'
import { createProvider } from './providers.ts'
import type { Credential, Provider, ProviderAnswer } from './provider.ts'
import type { AuthnRepository } from './store.ts'
import { log } from '../../log/index.ts'
import { authenticatorTerm, chainTerm } from '../../trace/authn-terms.ts'

export interface Authenticator {
  readonly id: string
  config: AuthenticatorConfig
  provider: Provider
  readonly counters: AuthnCounters
}

const END_OF_CHAIN: AuthDecision = { result: 'deny', reason: 'not_authorized' }

export const authenticatorNotFound = (id: string) => new ApiError(404, 'NOT_FOUND', `Authenticator '${id}' does not exist`)
export const noGlobalChain = () => new ApiError(404, 'NOT_FOUND', "Authenticator not found in the 'global' scope")

export class AuthnFeature {
  readonly repository: AuthnRepository
  private readonly broker: Broker
  private chain: Authenticator[] = []
  /** The enabled authenticators in order, made anew at each change so a connect allocates nothing for it. */
  private enabled: readonly Authenticator[] = []
  /** EMQX answers some calls differently before the global chain was ever made. */
  private chainExists = false
  private readonly unhook: () => void
  private readonly timer: NodeJS.Timeout
  private readonly tickMs: number
  /** The ACL an authenticator gave a client (JWT claim, HTTP answer), for authorization to read. */
  private readonly acls = new WeakMap<ClientInfo, unknown>()
  /** Clients whose authentication ends at a time (JWT exp, HTTP expire_at): the timer that disconnects them. */
  private readonly expiries = new Map<ClientInfo, NodeJS.Timeout>()

  constructor(broker: Broker, repository: AuthnRepository, options: { tickMs?: number } = {}) {
    this.broker = broker
    this.repository = repository
    this.tickMs = options.tickMs ?? 5000
    this.reload()
    const unhooks = [
      broker.hooks.add('client.authenticate', (info, password, enhanced) => this.authenticate(info, password, enhanced), HP.AUTHN),
      broker.hooks.add('client.disconnected', (info) => this.forgetExpiry(info), HP.AUTHN),
    ]
    this.unhook = () => unhooks.forEach((unhook) => unhook())
    this.timer = setInterval(() => this.sample(), this.tickMs)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.unhook()
    for (const timer of this.expiries.values()) clearTimeout(timer)
    this.expiries.clear()
    for (const entry of this.chain) entry.provider.destroy?.()
  }

  /** Makes the chain anew from the stored configs: at start, and after a data backup was imported. */
  reload(): void {
    for (const entry of this.chain) entry.provider.destroy?.()
    this.chain = []
    for (const stored of this.repository.listAuthenticators()) {
      const config = readStoredConfig(stored.config)
      if (!config) {
        log.error({ tag: 'AUTHN', id: stored.id }, 'authenticator_config_invalid_left_out')
        continue
      }
      try {
        this.chain.push({ id: authenticatorId(config), config, provider: createProvider(config, this.repository), counters: new AuthnCounters() })
      } catch (error) {
        log.error({ tag: 'AUTHN', id: stored.id, err: error }, 'failed_to_create_authenticator')
      }
    }
    this.chainExists = this.chain.length > 0
    this.enabled = this.chain.filter((entry) => entry.config.enable)
  }

  list(): readonly Authenticator[] {
    return this.chain
  }

  get(id: string): Authenticator {
    const entry = this.chain.find((candidate) => candidate.id === id)
    if (!entry) throw authenticatorNotFound(id)
    return entry
  }

  find(id: string): Authenticator | undefined {
    return this.chain.find((candidate) => candidate.id === id)
  }

  /** An authenticator for the users endpoints: 404 before any chain exists, undefined when unknown. */
  usersAuthenticator(id: string): Authenticator | undefined {
    if (!this.chainExists) throw noGlobalChain()
    return this.find(id)
  }

  /** Appends an authenticator (409 when its id is in the chain already). */
  create(config: AuthenticatorConfig): Authenticator {
    const id = authenticatorId(config)
    if (this.find(id)) throw new ApiError(409, 'ALREADY_EXISTS', `Authenticator '${id}' already exist`)
    const entry: Authenticator = { id, config, provider: createProvider(config, this.repository), counters: new AuthnCounters() }
    this.chain.push(entry)
    this.chainExists = true
    this.save()
    return entry
  }

  /** Replaces a config; its mechanism and backend must stay. Counters are kept. */
  update(id: string, config: AuthenticatorConfig): void {
    const entry = this.get(id)
    if (authenticatorId(config) !== id) throw new ApiError(400, 'BAD_REQUEST', 'Change of authentication type is not allowed')
    const provider = createProvider(config, this.repository)
    entry.provider.destroy?.()
    entry.provider = provider
    entry.config = config
    this.save()
  }

  /** Removes an authenticator and its users; an unknown id is no error once the chain exists. */
  delete(id: string): void {
    if (!this.chainExists) throw noGlobalChain()
    const entry = this.find(id)
    if (!entry) return
    entry.provider.destroy?.()
    this.chain = this.chain.filter((candidate) => candidate !== entry)
    this.repository.clearUsers(id)
    this.save()
  }

  move(id: string, position: Position): void {
    const entry = this.get(id)
    const rest = this.chain.filter((candidate) => candidate !== entry)
    let index: number
    if (position.kind === 'front') index = 0
    else if (position.kind === 'rear') index = rest.length
    else {
      const target = rest.findIndex((candidate) => candidate.id === position.id)
      if (target < 0) throw authenticatorNotFound(position.id)
      index = position.kind === 'before' ? target : target + 1
    }
    rest.splice(index, 0, entry)
    this.chain = rest
    this.save()
  }

  /** Puts the chain in the order of `ids`, which must name every authenticator once. */
  reorder(ids: readonly string[]): void {
    const known = new Set(this.chain.map((entry) => entry.id))
    const notFound = ids.filter((id) => !known.has(id))
    const notReordered = [...known].filter((id) => !ids.includes(id))
    if (notFound.length > 0 || notReordered.length > 0) {
      const parts = [
        ...(notFound.length > 0 ? [`Authenticators: ${notFound.join(', ')} are not found`] : []),
        ...(notReordered.length > 0 ? [`No positions are specified for authenticators: ${notReordered.join(', ')}`] : []),
      ]
      throw new ApiError(400, 'BAD_REQUEST', parts.join(', '))
    }
    this.chain = ids.map((id) => this.get(id))
    this.save()
  }

  /** The `client.authenticate` callback: undefined (anonymous) when no authenticator is enabled. */
  authenticate(info: ClientInfo, password: Buffer | undefined, enhanced?: EnhancedAuth): MaybePromise<AuthDecision | undefined> {
    // The listener's enable_authn, as emqx_access_control's pre_hook_authenticate: false skips the
    // chain, quick_deny_anonymous refuses a client without a username before it.
    const tracer = this.broker.access.tracer
    if (info.enableAuthn === false) {
      if (tracer !== undefined) tracer.authn(info, 'pre_hook_authenticate', { result: 'ok', reason: 'enable_authn_false' })
      return undefined
    }
    if (info.enableAuthn === 'quick_deny_anonymous' && !info.username) {
      // 5.8 gives this refusal the same reason as the skip above.
      if (tracer !== undefined) tracer.authn(info, 'pre_hook_authenticate', { result: '{error,not_authorized}', reason: 'enable_authn_false' })
      return { result: 'deny', reason: 'not_authorized' }
    }
    const enabled = this.enabled
    if (enabled.length === 0) {
      // 5.8 keeps a chain only while it holds an authenticator (save_chain deletes an empty one):
      // `empty_chain` when all are disabled, `no_chain` when there are none.
      if (tracer !== undefined) tracer.authn(info, 'authentication_result', { result: 'ignore', reason: this.chain.length > 0 ? 'empty_chain' : 'no_chain' })
      return undefined
    }
    const credential: Credential = {
      clientid: info.clientid,
      username: info.username,
      password: password?.toString('utf8'),
      peerhost: info.peerhost,
      peerport: info.peerport,
      listener: info.listener,
      protoVer: info.protoVer,
      cert_common_name: undefined,
      cert_subject: undefined,
      client_attrs: info.clientAttrs ?? {},
      ...(enhanced ? { authMethod: enhanced.method, authData: enhanced.data, authCache: enhanced.cache } : {}),
    }
    this.acls.delete(info)
    const decision = this.ask(enabled, 0, credential, info)
    if (tracer === undefined) return decision
    const traced = (decided: AuthDecision): AuthDecision => {
      const result = chainTerm(decided)
      if (result !== undefined) tracer.authn(info, 'authentication_result', { result, reason: 'chain_result' })
      return decided
    }
    return isPromise(decision) ? decision.then(traced) : traced(decision)
  }

  /**
   * What the chain would answer these credentials (`authn.test`): every authenticator in order, its
   * answer, and which one decides; the authenticators' counters do not move and no hook fires (a
   * backend's own request counters do: the request is real).
   */
  async test(credential: Credential): Promise<AuthnTest> {
    const steps: AuthnTest['steps'] = []
    let decided: AuthnTest | undefined
    for (const entry of this.chain) {
      if (!entry.config.enable) {
        steps.push({ id: entry.id, answer: 'disabled' })
        continue
      }
      let answer: ProviderAnswer
      try {
        answer = await entry.provider.authenticate(credential)
      } catch (error) {
        steps.push({ id: entry.id, answer: 'ignore', reason: error instanceof Error ? error.message : String(error) })
        continue
      }
      if (answer === 'ignore' || answer.result === 'continue') {
        steps.push({ id: entry.id, answer: 'ignore' })
        continue
      }
      const step = answer.result === 'ok' ? { id: entry.id, answer: 'ok' as const } : { id: entry.id, answer: 'error' as const, reason: answer.reason }
      steps.push(step)
      decided ??=
        answer.result === 'ok'
          ? { result: 'allow', authenticator: entry.id, is_superuser: answer.isSuperuser, steps }
          : { result: 'deny', authenticator: entry.id, reason: answer.reason, is_superuser: false, steps }
      if (decided) break
    }
    if (decided) return decided
    // As the chain: no enabled authenticator lets the client in anonymously; one that answered nothing refuses.
    return this.enabled.length === 0
      ? { result: 'allow', authenticator: null, is_superuser: false, steps }
      : { result: 'deny', authenticator: null, reason: 'not_authorized', is_superuser: false, steps }
  }

  /** The ACL rules the authenticator that let this client in gave it, if any. */
  aclOf(info: ClientInfo): unknown {
    return this.acls.get(info)
  }

  private ask(entries: readonly Authenticator[], from: number, credential: Credential, info: ClientInfo): MaybePromise<AuthDecision> {
    for (let i = from; i < entries.length; i++) {
      const entry = entries[i]
      entry.counters.total++
      let answer: MaybePromise<ProviderAnswer>
      try {
        answer = entry.provider.authenticate(credential)
      } catch (error) {
        this.failed(entry, error, info)
        continue
      }
      if (isPromise(answer)) {
        return answer.then(
          (later) => this.decided(entry, later, info) ?? this.ask(entries, i + 1, credential, info),
          (error: unknown) => {
            this.failed(entry, error, info)
            return this.ask(entries, i + 1, credential, info)
          },
        )
      }
      const decision = this.decided(entry, answer, info)
      if (decision) return decision
    }
    return END_OF_CHAIN
  }

  private failed(entry: Authenticator, error: unknown, info: ClientInfo): void {
    log.error({ tag: 'AUTHN', authenticator: entry.id, err: error }, 'authenticator_error')
    const tracer = this.broker.access.tracer
    if (tracer !== undefined) tracer.authn(info, 'authenticator_error', { authenticator: entry.id, exception: 'error', reason: error instanceof Error ? error.message : String(error) })
    entry.counters.nomatch++
  }

  private decided(entry: Authenticator, answer: ProviderAnswer, info: ClientInfo): AuthDecision | undefined {
    const tracer = this.broker.access.tracer
    if (tracer !== undefined && (answer === 'ignore' || answer.result !== 'continue')) tracer.authn(info, 'authenticator_result', { authenticator: entry.id, result: authenticatorTerm(answer) })
    if (answer === 'ignore') {
      entry.counters.nomatch++
      return undefined
    }
    // Another round of enhanced authentication: neither a success nor a failure yet, as EMQX counts.
    if (answer.result === 'continue') return { result: 'continue', data: answer.data, cache: answer.cache }
    if (answer.result === 'ok') {
      entry.counters.success++
      if (answer.acl !== undefined) this.acls.set(info, answer.acl)
      if (answer.expireAt !== undefined) this.expireAt(info, answer.expireAt)
      return {
        result: 'allow',
        isSuperuser: answer.isSuperuser,
        ...(answer.authData ? { authData: answer.authData } : {}),
        ...(answer.clientAttrs ? { clientAttrs: answer.clientAttrs } : {}),
      }
    }
    entry.counters.failed++
    return { result: 'deny', reason: answer.reason }
  }

  /** Disconnects the client at `at` (epoch ms) with not_authorized, as EMQX's connection_expire timer. */
  private expireAt(info: ClientInfo, at: number): void {
    this.forgetExpiry(info)
    // setTimeout cannot wait longer than about 24.8 days: a later time is waited for in steps.
    const timer = setTimeout(() => {
      this.expiries.delete(info)
      if (Date.now() < at) return this.expireAt(info, at)
      const session = this.broker.getSession(info.clientid)
      if (session?.info === info) session.channel?.close('auth_expired', RC.NOT_AUTHORIZED)
    }, Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1))
    timer.unref()
    this.expiries.set(info, timer)
  }

  private forgetExpiry(info: ClientInfo): void {
    clearTimeout(this.expiries.get(info))
    this.expiries.delete(info)
  }

  /** `GET /authentication/{id}/status`: this node's status and counters, as EMQX aggregates a cluster's. */
  async status(id: string): Promise<AuthnStatusAnswer> {
    const entry = this.get(id)
    const node = this.broker.node
    const health: { status: AuthnStatus; error?: string } = entry.provider.status ? await entry.provider.status() : { status: 'connected' }
    const metrics = entry.counters.snapshot()
    const resource = entry.provider.resource?.snapshot() ?? {}
    return {
      status: health.status,
      node_status: [{ node, status: health.status }],
      metrics,
      node_metrics: [{ node, metrics }],
      resource_metrics: resource,
      node_resource_metrics: [{ node, metrics: resource }],
      node_error: health.error ? [{ node, reason: health.error }] : [],
    }
  }

  private sample(): void {
    for (const entry of this.chain) {
      entry.counters.sample(this.tickMs)
      entry.provider.resource?.sample(this.tickMs)
    }
  }

  private save(): void {
    this.enabled = this.chain.filter((entry) => entry.config.enable)
    this.repository.saveChain(this.chain.map((entry) => ({ id: entry.id, config: entry.config })))
  }
}
