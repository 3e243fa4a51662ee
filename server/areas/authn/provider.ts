// What each authenticator backend implements (EMQX's emqx_authn_provider), and what it is given:
// the connecting client's credential, with EMQX's placeholder names.
import { ATTR_NAME } from '../../../contract/variform.ts'
import type { AuthnStatus } from '../../../contract/authn.ts'
import type { MaybePromise } from '../../broker/hooks.ts'
import type { ResourceCounters } from './metrics.ts'

/** The client as an authenticator sees it; keys are EMQX's placeholder names. */
export interface Credential {
  clientid: string
  username: string | undefined
  password: string | undefined
  peerhost: string
  peerport: number
  listener: string
  protoVer: number
  /** No TLS listener yet: always undefined, rendered as empty text. */
  cert_common_name: string | undefined
  cert_subject: string | undefined
  /** The client's attributes (`${client_attrs.NAME}`). */
  client_attrs?: Readonly<Record<string, string>>
  /** MQTT 5 enhanced authentication: the method, this round's data, the last round's cache. */
  authMethod?: string
  authData?: Buffer
  authCache?: unknown
}

/**
 * One backend's answer, as EMQX's providers give it: `ignore` passes to the next authenticator,
 * `ok` lets the client in, `error` refuses it.
 */
export type ProviderAnswer =
  | {
      result: 'ok'
      isSuperuser: boolean
      acl?: unknown
      /** For the CONNACK of enhanced authentication. */
      authData?: Buffer
      /** When the client is to be disconnected (epoch ms): a JWT's `exp`, an HTTP answer's `expire_at`. */
      expireAt?: number
      /** An HTTP answer's or a JWT's `client_attrs`, merged over the client's attributes. */
      clientAttrs?: Readonly<Record<string, string>>
    }
  /** Enhanced authentication takes another round: `data` goes to the client in AUTH, `cache` comes back with its answer. */
  | { result: 'continue'; data: Buffer; cache: unknown }
  | { result: 'error'; reason: 'bad_username_or_password' | 'not_authorized' }
  | 'ignore'

/**
 * emqx_authn_utils:client_attrs: an answer's `client_attrs`, names that are not attribute names
 * dropped; undefined when there is none. A value that is not text fails the answer, as 5.8's
 * iolist_to_binary fails (the chain then asks the next authenticator).
 */
export function clientAttrsOf(answer: Record<string, unknown>): Record<string, string> | undefined {
  const attrs = answer.client_attrs
  if (attrs === undefined) return undefined
  if (typeof attrs !== 'object' || attrs === null || Array.isArray(attrs)) throw new Error(`client_attrs is not a map: ${JSON.stringify(attrs)}`)
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(attrs)) {
    if (!ATTR_NAME.test(name)) continue
    if (typeof value !== 'string') throw new Error(`client_attrs.${name} is not a string: ${JSON.stringify(value)}`)
    kept[name] = value
  }
  return Object.keys(kept).length > 0 ? kept : undefined
}

/** `{ clientAttrs }` to spread into an `ok` answer, or nothing. */
export function withClientAttrs(answer: Record<string, unknown>): { clientAttrs?: Record<string, string> } {
  const clientAttrs = clientAttrsOf(answer)
  return clientAttrs ? { clientAttrs } : {}
}

export const IGNORE = 'ignore' as const
export const BAD_PASSWORD: ProviderAnswer = { result: 'error', reason: 'bad_username_or_password' }
export const NOT_AUTHORIZED: ProviderAnswer = { result: 'error', reason: 'not_authorized' }

export interface Provider {
  /** May throw or reject: the chain counts it as `nomatch` and asks the next one, as EMQX. */
  authenticate(credential: Credential): MaybePromise<ProviderAnswer>
  /** The backend's health; without it the authenticator is always `connected`. */
  status?(): Promise<{ status: AuthnStatus; error?: string }>
  /** The backend resource's counters (HTTP requests), shown under `resource_metrics`. */
  readonly resource?: ResourceCounters
  /** Releases timers and connections when the authenticator is removed or replaced. */
  destroy?(): void
}
