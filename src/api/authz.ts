// MQTT client authorization (`/authorization`): the settings, the ordered sources and their status,
// and the built-in database's rules, read with the contract.
import * as v from 'valibot'
import {
  AllRulesSchema,
  AnyAuthzSourceSchema,
  AnyAuthzSourcesSchema,
  AuthzCheckSchema,
  AuthzSettingsSchema,
  ClientRulesPageSchema,
  ClientRulesSchema,
  SourceStatusSchema,
  UserRulesPageSchema,
  UserRulesSchema,
  type AuthzCheck,
  type AuthzCheckInput,
  type AuthzRuleInput,
  type AuthzSettings,
} from '../../contract/authz.ts'
import type { Http } from './http.ts'
import { pathSegment } from './clients.ts'

export type { AuthzCheck, AuthzCheckInput, AuthzRuleInput, AuthzSettings } from '../../contract/authz.ts'
export type AuthzSourceRead = v.InferOutput<typeof AnyAuthzSourceSchema>

const SOURCES = 'authorization/sources'
const RULES = `${SOURCES}/built_in_database/rules`

/** `front`, `rear`, `before:<type>` or `after:<type>`. */
export type SourcePosition = 'front' | 'rear' | `before:${string}` | `after:${string}`

export function authzApi(http: Http) {
  const source = (type: string) => `${SOURCES}/${pathSegment(type)}`
  return {
    settings(signal?: AbortSignal): Promise<AuthzSettings> {
      return http.get('authorization/settings', AuthzSettingsSchema, undefined, signal)
    },
    /** Changes the given settings, keeping the rest (EMQX's PUT takes the whole document). */
    async updateSettings(changes: Partial<Omit<AuthzSettings, 'cache'>> & { cache?: Partial<AuthzSettings['cache']> }): Promise<AuthzSettings> {
      const current = await http.get('authorization/settings', AuthzSettingsSchema)
      return http.send('put', 'authorization/settings', AuthzSettingsSchema, { ...current, ...changes, cache: { ...current.cache, ...changes.cache } })
    },
    async sources(signal?: AbortSignal): Promise<AuthzSourceRead[]> {
      return (await http.get(SOURCES, AnyAuthzSourcesSchema, undefined, signal)).sources
    },
    source(type: string, signal?: AbortSignal): Promise<AuthzSourceRead> {
      return http.get(source(type), AnyAuthzSourceSchema, undefined, signal)
    },
    status(type: string, signal?: AbortSignal) {
      return http.get(`${source(type)}/status`, SourceStatusSchema, undefined, signal)
    },
    /** Adds a source at the front; 400 for a type already there or one the server does not run. */
    create(config: { type: string } & Record<string, unknown>): Promise<void> {
      return http.send('post', SOURCES, null, config)
    },
    update(type: string, config: { type: string } & Record<string, unknown>): Promise<void> {
      return http.send('put', source(type), null, config)
    },
    /** Turns a source on or off, keeping its configuration. */
    async setEnabled(type: string, enable: boolean): Promise<void> {
      const current = await http.get(source(type), AnyAuthzSourceSchema)
      return http.send('put', source(type), null, { ...current, enable })
    },
    delete(type: string): Promise<void> {
      return http.send('delete', source(type), null)
    },
    move(type: string, position: SourcePosition): Promise<void> {
      return http.send('post', `${source(type)}/move`, null, { position })
    },
    order(types: readonly string[]): Promise<void> {
      return http.send('put', `${SOURCES}/order`, null, types.map((type) => ({ type })))
    },
    /**
     * What the sources would answer a client, and which source and rule decide: this console's own
     * endpoint, which a real EMQX does not have (it answers 404 there).
     */
    check(input: AuthzCheckInput): Promise<AuthzCheck> {
      return http.send('post', 'authorization/check', AuthzCheckSchema, input)
    },
    /** Empties every client's authorization cache. */
    clearCache(): Promise<void> {
      return http.send('delete', 'authorization/cache', null)
    },
    clientRules(params: { page?: number; limit?: number; like_clientid?: string } = {}, signal?: AbortSignal) {
      return http.get(`${RULES}/clients`, ClientRulesPageSchema, { ...params }, signal)
    },
    userRules(params: { page?: number; limit?: number; like_username?: string } = {}, signal?: AbortSignal) {
      return http.get(`${RULES}/users`, UserRulesPageSchema, { ...params }, signal)
    },
    clientRulesOf(clientid: string, signal?: AbortSignal) {
      return http.get(`${RULES}/clients/${pathSegment(clientid)}`, ClientRulesSchema, undefined, signal)
    },
    userRulesOf(username: string, signal?: AbortSignal) {
      return http.get(`${RULES}/users/${pathSegment(username)}`, UserRulesSchema, undefined, signal)
    },
    /** Creates the rules of a client id (409 when it has some) or replaces them. */
    setClientRules(clientid: string, rules: AuthzRuleInput[], replace = false): Promise<void> {
      return replace
        ? http.send('put', `${RULES}/clients/${pathSegment(clientid)}`, null, { clientid, rules })
        : http.send('post', `${RULES}/clients`, null, [{ clientid, rules }])
    },
    setUserRules(username: string, rules: AuthzRuleInput[], replace = false): Promise<void> {
      return replace
        ? http.send('put', `${RULES}/users/${pathSegment(username)}`, null, { username, rules })
        : http.send('post', `${RULES}/users`, null, [{ username, rules }])
    },
    deleteClientRules(clientid: string): Promise<void> {
      return http.send('delete', `${RULES}/clients/${pathSegment(clientid)}`, null)
    },
    deleteUserRules(username: string): Promise<void> {
      return http.send('delete', `${RULES}/users/${pathSegment(username)}`, null)
    },
    async allRules(signal?: AbortSignal) {
      return (await http.get(`${RULES}/all`, AllRulesSchema, undefined, signal)).rules
    },
    setAllRules(rules: AuthzRuleInput[]): Promise<void> {
      return http.send('post', `${RULES}/all`, null, { rules })
    },
    /** Removes every built-in rule; the source must be disabled first. */
    purgeRules(): Promise<void> {
      return http.send('delete', RULES, null)
    },
  }
}

export type AuthzApi = ReturnType<typeof authzApi>
