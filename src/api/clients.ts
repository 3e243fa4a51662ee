// MQTT clients: list with EMQX's filters, one client's detail, its subscriptions, kick,
// subscribe/unsubscribe on its behalf, and the messages queued or in flight to it.
import * as v from 'valibot'
import {
  authzCacheSchema,
  clientCursorPageSchema,
  clientMessagePageSchema,
  clientSchema,
  sessionsCountSchema,
  type AuthzCacheEntry,
  type Client,
  type ClientField,
  type ClientMessagePage,
} from '../../contract/clients.ts'
import { cursorPages } from './cursorPages.ts'
import { ApiError } from '../../contract/api-error.ts'
import { paged, type Http, type SearchParams } from './http.ts'
import { subscriptionSchema } from './subscriptions.ts'
import { queryBoolean, queryNumberOf, queryPaging, queryText } from './listQuery.ts'

export { clientSchema }
export type { Client, ClientField }

export const clientPageSchema = paged(clientSchema)
export type ClientPage = v.InferOutput<typeof clientPageSchema>

const subscriptionListSchema = v.array(subscriptionSchema)

export interface ClientMessageParams {
  limit?: number
  /** The `meta.position` of the previous page; absent for the first. */
  position?: string
}

export interface SubscribeOptions {
  topic: string
  qos?: 0 | 1 | 2
  /** No Local: 0 or 1. */
  nl?: 0 | 1
  /** Retain As Published: 0 or 1. */
  rap?: 0 | 1
  /** Retain Handling: 0 send, 1 send if new, 2 do not send. */
  rh?: 0 | 1 | 2
}

/** The query `GET /clients` understands; times are epoch seconds as EMQX's console sends them. */
export interface ClientFilters {
  node?: string
  username?: string
  ip_address?: string
  conn_state?: 'connected' | 'idle' | 'disconnected'
  clean_start?: boolean
  proto_ver?: number
  like_clientid?: string
  like_username?: string
  like_ip_address?: string
  gte_created_at?: number
  lte_created_at?: number
  gte_connected_at?: number
  lte_connected_at?: number
}

export interface ClientListParams extends ClientFilters {
  page?: number
  limit?: number
}

const clientNotFound = () => new ApiError(404, 'CLIENTID_NOT_FOUND', 'Client ID not found')

/** EMQX's dashboard listener takes request lines of up to 8000 bytes (cowboy's default). */
const QUERY_BUDGET = 4000

/** Ids in groups whose `clientid=` query stays within the budget. */
function urlBatches(clientids: readonly string[]): string[][] {
  const batches: string[][] = []
  let size = QUERY_BUDGET
  for (const id of clientids) {
    const cost = encodeURIComponent(id).length + 10
    if (size + cost > QUERY_BUDGET) {
      batches.push([])
      size = 0
    }
    batches.at(-1)!.push(id)
    size += cost
  }
  return batches
}

/** A path segment for an id that may hold `/`, spaces, `#`, `?` or be `.`/`..`. */
export function pathSegment(id: string): string {
  const encoded = encodeURIComponent(id)
  return encoded === '.' || encoded === '..' ? encoded.replaceAll('.', '%2E') : encoded
}

export function clientsApi(http: Http) {
  const path = (clientid: string) => `clients/${pathSegment(clientid)}`
  const list = (params: ClientListParams = {}, signal?: AbortSignal): Promise<ClientPage> =>
    http.get('clients', clientPageSchema, { ...params } satisfies SearchParams, signal)

  /** Which of these ids have a session now: `GET /clients?clientid=…` in batches that keep URLs short. */
  async function withSessions(clientids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>()
    for (const batch of urlBatches(clientids)) {
      const query = new URLSearchParams(batch.map((id) => ['clientid', id]))
      query.set('limit', String(batch.length))
      query.set('fields', 'clientid,node,connected')
      const page = await http.get(`clients?${query}`, clientPageSchema)
      for (const client of page.data) found.add(client.clientid)
    }
    return found
  }
  const v2Pages = cursorPages<Client>()
  /** Whether the server has GET /clients_v2: unknown until asked, false once it answered 404 (older EMQX). */
  let offersV2: boolean | undefined

  /** A numbered page read by cursor; undefined when the server turns out not to have /clients_v2. */
  async function browseV2(params: ClientListParams, signal?: AbortSignal): Promise<ClientPage | undefined> {
    const { page = 1, limit = 100, ...filters } = params
    try {
      const result = await v2Pages(JSON.stringify({ ...filters, limit }), page, async (cursor) => {
        const answer = await http.get('clients_v2', clientCursorPageSchema, { ...filters, limit, cursor } satisfies SearchParams, signal)
        return { data: answer.data, cursor: answer.meta.cursor }
      })
      offersV2 = true
      return { data: result.data, meta: { page, limit, hasnext: result.hasnext } }
    } catch (error) {
      if (offersV2 !== undefined || !(error instanceof ApiError) || error.status !== 404) throw error
      offersV2 = false
      return undefined
    }
  }

  return {
    /** A page of `GET /clients` by number, with the total count. */
    list,
    /**
     * A page as the clients screen shows it: EMQX 5.8's default list, `GET /clients_v2` by cursor
     * (no total count), where the server has it; `GET /clients` against an older EMQX, or to filter
     * by node (which /clients_v2 does not).
     */
    async browse(params: ClientListParams = {}, signal?: AbortSignal): Promise<ClientPage> {
      const page = offersV2 !== false && params.node === undefined ? await browseV2(params, signal) : undefined
      return page ?? list(params, signal)
    },
    get(clientid: string, signal?: AbortSignal): Promise<Client> {
      return http.get(path(clientid), clientSchema, undefined, signal)
    },
    /** Disconnects the client and discards its session; 404 CLIENTID_NOT_FOUND when unknown. */
    kick(clientid: string): Promise<void> {
      return http.send('delete', path(clientid), null)
    },
    /**
     * Kicks several clients with one `POST /clients/kickout/bulk`, and answers why each id that was
     * not kicked was not. EMQX's bulk kick skips ids without a session silently, so they are looked
     * up first; an EMQX without the bulk endpoint (404) gets one kick per client.
     */
    async kickMany(clientids: readonly string[]): Promise<Map<string, ApiError>> {
      const present = await withSessions(clientids)
      const failed = new Map(clientids.filter((id) => !present.has(id)).map((id) => [id, clientNotFound()]))
      const targets = clientids.filter((id) => present.has(id))
      if (targets.length === 0) return failed
      try {
        await http.send('post', 'clients/kickout/bulk', null, targets)
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) throw error
        for (const clientid of targets) {
          await http.send('delete', path(clientid), null).catch((kickError: unknown) => {
            failed.set(clientid, kickError instanceof ApiError ? kickError : clientNotFound())
          })
        }
      }
      return failed
    },
    /** Sets the keep alive in force for a connected client (seconds, 0 = off); answers the client. */
    setKeepalive(clientid: string, interval: number): Promise<Client> {
      return http.send('put', `${path(clientid)}/keepalive`, clientSchema, { interval })
    },
    /** Sessions in the cluster, connected or not (`GET /sessions_count`). */
    sessionsCount(signal?: AbortSignal): Promise<number> {
      return http.get('sessions_count', sessionsCountSchema, undefined, signal)
    },
    /** What the client's authorization cache holds (topic, access, result). */
    authzCache(clientid: string, signal?: AbortSignal): Promise<AuthzCacheEntry[]> {
      return http.get(`${path(clientid)}/authorization/cache`, authzCacheSchema, undefined, signal)
    },
    clearAuthzCache(clientid: string): Promise<void> {
      return http.send('delete', `${path(clientid)}/authorization/cache`, null)
    },
    subscriptions(clientid: string, signal?: AbortSignal) {
      return http.get(`${path(clientid)}/subscriptions`, subscriptionListSchema, undefined, signal)
    },
    /** Subscribes the client as if it had sent SUBSCRIBE; 404 CLIENTID_NOT_FOUND when unknown. */
    subscribe(clientid: string, options: SubscribeOptions) {
      return http.send('post', `${path(clientid)}/subscribe`, subscriptionSchema, options)
    },
    unsubscribe(clientid: string, topic: string): Promise<void> {
      return http.send('post', `${path(clientid)}/unsubscribe`, null, { topic })
    },
    mqueueMessages(clientid: string, params: ClientMessageParams = {}, signal?: AbortSignal): Promise<ClientMessagePage> {
      return http.get(`${path(clientid)}/mqueue_messages`, clientMessagePageSchema, { ...params }, signal)
    },
    inflightMessages(clientid: string, params: ClientMessageParams = {}, signal?: AbortSignal): Promise<ClientMessagePage> {
      return http.get(`${path(clientid)}/inflight_messages`, clientMessagePageSchema, { ...params }, signal)
    },
    /** Up to 10 client ids containing `query`, for completion. */
    async suggest(query: string, signal?: AbortSignal): Promise<string[]> {
      const page = await http.get('clients', clientPageSchema, { like_clientid: query.trim(), page: 1, limit: 10 }, signal)
      return page.data.slice(0, 10).map((client) => client.clientid)
    },
  }
}

export type ClientsApi = ReturnType<typeof clientsApi>

/** The filters of the client list as its URL holds them (the same names `GET /clients` takes). */
export const clientsSearch = v.object({
  like_clientid: v.optional(queryText()),
  like_username: v.optional(queryText()),
  like_ip_address: v.optional(queryText()),
  conn_state: v.optional(v.picklist(['connected', 'disconnected'])),
  proto_ver: v.optional(queryNumberOf([3, 4, 5])),
  clean_start: v.optional(queryBoolean()),
  node: v.optional(queryText()),
  ...queryPaging,
})
