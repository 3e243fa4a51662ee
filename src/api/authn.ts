// MQTT client authentication (`/authentication`): the authenticator chain, its order and status,
// and the users of the built-in database (add, change, remove, import).
import * as v from 'valibot'
import {
  AnyAuthenticatorSchema,
  AuthnStatusSchema,
  AuthnTestSchema,
  ImportResultSchema,
  UserPageSchema,
  UserSchema,
  type AnyAuthenticator,
  type AuthnStatusAnswer,
  type AuthnTest,
  type AuthnTestInput,
  type ImportResult,
  type ImportType,
  type User,
  type UserPage,
} from '../../contract/authn.ts'
import { toApiError, type Http } from './http.ts'
import { pathSegment } from './clients.ts'

export type { AnyAuthenticator, AuthnStatusAnswer, AuthnTest, AuthnTestInput, ImportResult, ImportType, User, UserPage } from '../../contract/authn.ts'

/** Where `move` puts an authenticator: first, last, or next to another one. */
export type AuthnPosition = 'front' | 'rear' | `before:${string}` | `after:${string}`

const path = (id: string, rest = '') => `authentication/${pathSegment(id)}${rest}`

export function authnApi(http: Http) {
  return {
    /**
     * What the chain answers these credentials, and which authenticator decides: this console's own
     * endpoint, which a real EMQX does not have (it answers 404 there).
     */
    test(input: AuthnTestInput): Promise<AuthnTest> {
      return http.send('post', 'authentication/test', AuthnTestSchema, input)
    },
    list(signal?: AbortSignal): Promise<AnyAuthenticator[]> {
      return http.get('authentication', v.array(AnyAuthenticatorSchema), undefined, signal)
    },
    get(id: string, signal?: AbortSignal): Promise<AnyAuthenticator> {
      return http.get(path(id), AnyAuthenticatorSchema, undefined, signal)
    },
    /** 409 ALREADY_EXISTS when the chain holds that id; 400 for a bad config or a backend the server lacks. */
    create(config: Record<string, unknown>): Promise<AnyAuthenticator> {
      return http.send('post', 'authentication', AnyAuthenticatorSchema, config)
    },
    /** Replaces the config (mechanism and backend stay); `******` keeps a stored secret. */
    update(id: string, config: Record<string, unknown>): Promise<void> {
      return http.send('put', path(id), null, config)
    },
    /** Turns an authenticator on or off, keeping the rest of its config. */
    async setEnabled(id: string, enable: boolean): Promise<void> {
      const { id: _id, ...config } = await this.get(id)
      await this.update(id, { ...config, enable })
    },
    delete(id: string): Promise<void> {
      return http.send('delete', path(id), null)
    },
    move(id: string, position: AuthnPosition): Promise<void> {
      return http.send('put', path(id, `/position/${pathSegment(position)}`), null)
    },
    /** Puts the whole chain in this order (every id once). */
    reorder(ids: string[]): Promise<void> {
      return http.send('put', 'authentication/order', null, ids.map((id) => ({ id })))
    },
    status(id: string, signal?: AbortSignal): Promise<AuthnStatusAnswer> {
      return http.get(path(id, '/status'), AuthnStatusSchema, undefined, signal)
    },
    users(id: string, params: { page?: number; limit?: number; like_user_id?: string; is_superuser?: boolean } = {}, signal?: AbortSignal): Promise<UserPage> {
      return http.get(path(id, '/users'), UserPageSchema, params, signal)
    },
    user(id: string, userId: string, signal?: AbortSignal): Promise<User> {
      return http.get(path(id, `/users/${pathSegment(userId)}`), UserSchema, undefined, signal)
    },
    addUser(id: string, user: { user_id: string; password: string; is_superuser?: boolean }): Promise<User> {
      return http.send('post', path(id, '/users'), UserSchema, user)
    },
    updateUser(id: string, userId: string, change: { password?: string; is_superuser?: boolean }): Promise<User> {
      return http.send('put', path(id, `/users/${pathSegment(userId)}`), UserSchema, change)
    },
    deleteUser(id: string, userId: string): Promise<void> {
      return http.send('delete', path(id, `/users/${pathSegment(userId)}`), null)
    },
    /** Imports users given as a list (`plain`: user_id, password; `hash`: user_id, password_hash, salt). */
    importUsers(id: string, type: ImportType, users: Array<Record<string, unknown>>): Promise<ImportResult> {
      return http.send('post', path(id, `/import_users?type=${type}`), ImportResultSchema, users)
    },
    /** Imports a `.csv` or `.json` file, sent as EMQX's console sends it (multipart part `filename`). */
    async importFile(id: string, type: ImportType, file: Blob, filename: string): Promise<ImportResult> {
      const form = new FormData()
      form.append('filename', file, filename)
      try {
        return v.parse(ImportResultSchema, await http.ky.post(path(id, '/import_users'), { searchParams: { type }, body: form }).json())
      } catch (error) {
        throw toApiError(error)
      }
    },
  }
}

export type AuthnApi = ReturnType<typeof authnApi>
