// Each client's recent authorization answers, as EMQX's authorization cache (`authorization.cache`):
// per client, at most `maxSize` answers kept for `ttlMs` each, the oldest evicted first; topics that
// match an excluded filter are always asked again. It lives as long as the client's connection.
import type { AuthzAction, AuthzDetail, AuthzResult } from './hooks.ts'
import { matchesFilter } from './topic-trie.ts'

export interface AuthzCacheSettings {
  enable: boolean
  maxSize: number
  ttlMs: number
  /** Topic filters whose answers are never cached. */
  excludes: string[]
}

export interface CachedAnswer {
  action: AuthzAction
  topic: string
  result: AuthzResult
  /** Epoch ms when the answer was cached. */
  updatedAt: number
}

/** EMQX's settings, but off until the authorization settings turn it on (it only matters once a source exists). */
export const defaultAuthzCacheSettings: AuthzCacheSettings = { enable: false, maxSize: 32, ttlMs: 60_000, excludes: [] }

export class AuthzCache {
  settings: AuthzCacheSettings = defaultAuthzCacheSettings
  private readonly clients = new Map<string, Map<string, CachedAnswer>>()

  /** Whether answers about this topic are cached at all. */
  covers(topic: string): boolean {
    return this.settings.enable && !this.settings.excludes.some((filter) => matchesFilter(filter, topic))
  }

  get(clientid: string, action: AuthzAction, topic: string, now = Date.now(), detail?: AuthzDetail): AuthzResult | undefined {
    const answers = this.clients.get(clientid)
    const key = cacheKey(action, topic, detail)
    const cached = answers?.get(key)
    if (!cached) return undefined
    if (now - cached.updatedAt >= this.settings.ttlMs) {
      answers!.delete(key)
      return undefined
    }
    return cached.result
  }

  put(clientid: string, action: AuthzAction, topic: string, result: AuthzResult, now = Date.now(), detail?: AuthzDetail): void {
    let answers = this.clients.get(clientid)
    if (!answers) this.clients.set(clientid, (answers = new Map()))
    const key = cacheKey(action, topic, detail)
    answers.delete(key)
    answers.set(key, { action, topic, result, updatedAt: now })
    // A Map keeps insertion order: the first entries are the oldest.
    for (const oldest of answers.keys()) {
      if (answers.size <= this.settings.maxSize) break
      answers.delete(oldest)
    }
  }

  /** A client's cached answers, oldest first (`GET /clients/{clientid}/authorization/cache`). */
  list(clientid: string): CachedAnswer[] {
    return [...(this.clients.get(clientid)?.values() ?? [])]
  }

  /** Forgets one client's answers (its connection ended, or an operator cleaned its cache), or everyone's. */
  clear(clientid?: string): void {
    if (clientid === undefined) this.clients.clear()
    else this.clients.delete(clientid)
  }
}

/** As EMQX keys its cache by the rich action: an answer about a QoS 0 publish says nothing about a retained QoS 1 one. */
function cacheKey(action: AuthzAction, topic: string, detail: AuthzDetail | undefined): string {
  return detail ? `${action}\u0000${detail.qos}${detail.retain ? 'r' : ''}\u0000${topic}` : `${action}\u0000${topic}`
}
