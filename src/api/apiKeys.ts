// API keys (`/api_key`): credentials for scripts and the CLI (HTTP Basic key:secret). Only a
// dashboard login may manage them; EMQX refuses API keys here (401 API_KEY_NOT_ALLOW).
import { apiKeyListSchema, apiKeySchema, createdApiKeySchema, type ApiKey, type CreatedApiKey } from '../../contract/api-keys.ts'
import type { Http } from './http.ts'
import { pathSegment } from './clients.ts'

export { apiKeySchema, createdApiKeySchema, type ApiKey, type CreatedApiKey }

export interface ApiKeyInput {
  name: string
  desc?: string
  enable?: boolean
  /** RFC 3339, or 'infinity' for never (EMQX's default). */
  expired_at?: string
}

export interface ApiKeyChange {
  desc?: string
  enable?: boolean
  /**
   * RFC 3339 or 'infinity'. EMQX reads a PUT without it as 'infinity', so `update` always sends
   * one: the key's current expiry unless this replaces it.
   */
  expired_at?: string | number
}

/** True when a key's `expired_at` means it never expires. */
export function neverExpires(expiredAt: ApiKey['expired_at']): boolean {
  return expiredAt === undefined || expiredAt === null || expiredAt === 'infinity'
}

export function apiKeysApi(http: Http) {
  const path = (name: string) => `api_key/${pathSegment(name)}`
  const list = (signal?: AbortSignal): Promise<ApiKey[]> => http.get('api_key', apiKeyListSchema, undefined, signal)
  const get = (name: string, signal?: AbortSignal): Promise<ApiKey> => http.get(path(name), apiKeySchema, undefined, signal)
  return {
    list,
    /** 404 NOT_FOUND when there is no key of that name. */
    get,
    /** 400 BAD_REQUEST for a name taken or malformed, a past expiry, or the 100-key limit. */
    create(input: ApiKeyInput): Promise<CreatedApiKey> {
      // EMQX 5's handler matches `desc` and `enable` in the body: always send both.
      return http.send('post', 'api_key', createdApiKeySchema, { desc: '', enable: true, ...input })
    },
    /** Changes what is given and keeps the rest, expiry included (read first, as EMQX would reset it). */
    async update(name: string, change: ApiKeyChange): Promise<ApiKey> {
      const current = await get(name)
      const expiredAt = change.expired_at ?? (neverExpires(current.expired_at) ? 'infinity' : current.expired_at!)
      return http.send('put', path(name), apiKeySchema, { ...change, expired_at: expiredAt })
    },
    /** 404 NOT_FOUND when there is no key of that name. */
    delete(name: string): Promise<void> {
      return http.send('delete', path(name), null)
    },
    /** Up to 10 key names containing `query`: the exact name first, then names starting with it. */
    async suggest(query: string, signal?: AbortSignal): Promise<string[]> {
      const needle = query.trim().toLowerCase()
      const rank = (name: string) => (name === query.trim() ? 0 : name.toLowerCase().startsWith(needle) ? 1 : 2)
      const keys = await list(signal)
      return keys
        .map((key) => key.name)
        .filter((name) => name.toLowerCase().includes(needle))
        .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
        .slice(0, 10)
    },
  }
}

export type ApiKeysApi = ReturnType<typeof apiKeysApi>
