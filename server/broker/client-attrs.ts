// Client attributes (`mqtt.client_attrs_init`, `mqtt.clientid_override`), as emqx_channel's
// maybe_set_client_initial_attrs and maybe_override_clientid: at CONNECT, after the client id and
// username are known and before authentication, each expression is rendered against the client's
// info; an empty result or a failure sets nothing. The expressions are compiled once, when the
// settings change.
import type { ClientAttrInit } from '../../contract/mqtt-configs.ts'
import { log } from '../log/index.ts'
import { compileVariform, renderVariform, type CompiledVariform } from '../variform/render.ts'

export type ClientAttrs = Readonly<Record<string, string>>

/** The attributes of a client that has none: shared, so a client without attributes costs nothing. */
export const NO_CLIENT_ATTRS: ClientAttrs = Object.freeze({})

export interface ClientAttrsConfig {
  readonly inits: readonly { readonly name: string; readonly expression: CompiledVariform }[]
  readonly clientidOverride: CompiledVariform | undefined
}

/** Compiles checked settings (the schema refused an expression that does not compile). */
export function compileClientAttrsConfig(inits: readonly ClientAttrInit[], clientidOverride: string): ClientAttrsConfig {
  return {
    inits: inits.map((init) => ({ name: init.set_as_attr, expression: compileVariform(init.expression) })),
    clientidOverride: clientidOverride === 'disabled' ? undefined : compileVariform(clientidOverride),
  }
}

/** What an expression sees at CONNECT: 5.8's ClientInfo at that point (cn, dn and peersni only over TLS). */
export type ConnectBindings = Record<string, unknown>

/** The CONNECT's User Properties as a map (the last of a repeated name wins, as maps:from_list). */
export function userPropertyMap(properties: Record<string, string | string[]> | undefined): Record<string, string> {
  const map: Record<string, string> = {}
  for (const [name, value] of Object.entries(properties ?? {})) map[name] = Array.isArray(value) ? (value.at(-1) ?? '') : value
  return map
}

/**
 * emqx_channel's enrich_client past the client id: the attributes (the expressions also see the
 * CONNECT's `user_property`), then `clientid_override` (which also sees `client_attrs`).
 */
export function enrichClient(config: ClientAttrsConfig, bindings: ConnectBindings, userProperty: Record<string, string>): { clientid: string; clientAttrs: ClientAttrs } {
  const clientid = String(bindings.clientid)
  const clientAttrs = config.inits.length === 0 ? NO_CLIENT_ATTRS : initialClientAttrs(config, { ...bindings, user_property: userProperty }, clientid)
  const withAttrs = clientAttrs === NO_CLIENT_ATTRS ? bindings : { ...bindings, client_attrs: clientAttrs }
  return { clientid: overriddenClientid(config, withAttrs, clientid) ?? clientid, clientAttrs }
}

/** The attributes the expressions give; each sees the client's info as it was before any was set (as in 5.8). */
export function initialClientAttrs(config: ClientAttrsConfig, bindings: ConnectBindings, clientid: string): ClientAttrs {
  if (config.inits.length === 0) return NO_CLIENT_ATTRS
  let attrs: Record<string, string> | undefined
  for (const { name, expression } of config.inits) {
    const result = renderVariform(expression, bindings)
    if (!result.ok) {
      log.warning({ clientid, set_as_attr: name, reason: result.reason }, 'client_attr_initialization_failed')
    } else if (result.value !== '') {
      attrs ??= {}
      attrs[name] = result.value
    }
  }
  return attrs ?? NO_CLIENT_ATTRS
}

/** The client id `clientid_override` gives, or undefined to keep the client's own (disabled, empty, failed). */
export function overriddenClientid(config: ClientAttrsConfig, bindings: ConnectBindings, clientid: string): string | undefined {
  if (!config.clientidOverride) return undefined
  const result = renderVariform(config.clientidOverride, bindings)
  if (!result.ok) {
    log.warning({ clientid, reason: result.reason }, 'clientid_override_expression_failed')
    return undefined
  }
  if (result.value === '') {
    log.warning({ clientid }, 'clientid_override_expression_returned_empty_string')
    return undefined
  }
  return result.value
}
