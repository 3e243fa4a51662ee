// Banned clients (`/banned`): who is refused at CONNECT (0x8A, v3 code 5) and kicked if connected.
import { BanCreatedSchema, BanPageSchema, type Ban, type BanType, type BanPage } from '../../contract/banned.ts'
import * as v from 'valibot'
import type { Http } from './http.ts'
import { queryPaging } from './listQuery.ts'
import { pathSegment } from './clients.ts'

export { banKinds, BAN_TYPES as banTypes, type Ban, type BanKind, type BanType, type BanPage } from '../../contract/banned.ts'

/** The ban list's URL: the page and its size. */
export const bannedSearch = v.object({ ...queryPaging })

export interface BanInput {
  as: BanType
  who: string
  reason?: string
  /** RFC 3339; absent (or null) means EMQX 5's default, `infinity`: the ban never ends. */
  until?: string
}

export function bannedApi(http: Http) {
  return {
    list(params: { page?: number; limit?: number } = {}, signal?: AbortSignal): Promise<BanPage> {
      return http.get('banned', BanPageSchema, { ...params }, signal)
    },
    /** 400 ALREADY_EXISTS when the same `as`/`who` is banned already. */
    async create(input: BanInput): Promise<Ban> {
      const created = await http.send('post', 'banned', BanCreatedSchema, input)
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
