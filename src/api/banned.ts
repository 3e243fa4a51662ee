// Banned clients (`/banned`): who is refused at CONNECT (0x8A, v3 code 5) and kicked if connected.
import * as v from 'valibot'
import { paged, type Http } from './http.ts'
import { pathSegment } from './clients.ts'

/** What a ban matches. EMQX 5.6+ adds `clientid_re`, `username_re` and `peerhost_net`. */
export const banKinds = ['clientid', 'username', 'peerhost'] as const
export type BanKind = (typeof banKinds)[number]

/** RFC 3339 in EMQX 5 responses; older versions send epoch seconds; 'infinity' for no end. */
const time = v.nullish(v.union([v.string(), v.number()]))

export const banSchema = v.object({
  as: v.string(),
  who: v.string(),
  by: v.nullish(v.string()),
  reason: v.nullish(v.string()),
  at: time,
  until: time,
})
export type Ban = v.InferOutput<typeof banSchema>

export const banPageSchema = paged(banSchema)
export type BanPage = v.InferOutput<typeof banPageSchema>

/** 5.0–5.5 answer the created ban; later versions wrap it as `{data: [ban]}`. */
const createdSchema = v.union([banSchema, v.object({ data: v.array(banSchema) })])

export interface BanInput {
  as: BanKind
  who: string
  reason?: string
  /** RFC 3339; absent (or null) means EMQX 5's default, `infinity`: the ban never ends. */
  until?: string
}

export function bannedApi(http: Http) {
  return {
    list(params: { page?: number; limit?: number } = {}, signal?: AbortSignal): Promise<BanPage> {
      return http.get('banned', banPageSchema, { ...params }, signal)
    },
    /** 400 ALREADY_EXISTS when the same `as`/`who` is banned already. */
    async create(input: BanInput): Promise<Ban> {
      const created = await http.send('post', 'banned', createdSchema, input)
      return 'data' in created ? (created.data[0] ?? { ...input }) : created
    },
    /** 404 NOT_FOUND when there is no such ban. */
    delete(as: string, who: string): Promise<void> {
      return http.send('delete', `banned/${pathSegment(as)}/${pathSegment(who)}`, null)
    },
    /** Removes every ban. */
    clear(): Promise<void> {
      return http.send('delete', 'banned', null)
    },
  }
}

export type BannedApi = ReturnType<typeof bannedApi>
