// The retainer: its settings (`/mqtt/retainer`) and the retained messages it holds.
import * as v from 'valibot'
import {
  RetainedMessageSchema,
  RetainedPageSchema,
  RetainerSettingsSchema,
  type RetainedMessage,
  type RetainedPage,
  type RetainerSettings,
} from '../../contract/retainer.ts'
import type { Http } from './http.ts'
import { pathSegment } from './clients.ts'
import { queryPaging, queryText } from './listQuery.ts'

export type { RetainedMessage, RetainedPage, RetainedSummary, RetainerSettings } from '../../contract/retainer.ts'

/** The query `GET /mqtt/retainer/messages` understands, which the retained list's URL holds too. */
export const retainedSearch = v.object({
  /** A topic filter (wildcards allowed) in EMQX 5.4+. */
  topic: v.optional(queryText()),
  ...queryPaging,
})
export type RetainedListParams = v.InferOutput<typeof retainedSearch>

export function retainerApi(http: Http) {
  const message = (topic: string) => `mqtt/retainer/message/${pathSegment(topic)}`
  return {
    settings(signal?: AbortSignal): Promise<RetainerSettings> {
      return http.get('mqtt/retainer', RetainerSettingsSchema, undefined, signal)
    },
    updateSettings(settings: RetainerSettings): Promise<RetainerSettings> {
      return http.send('put', 'mqtt/retainer', RetainerSettingsSchema, settings)
    },
    messages(params: RetainedListParams = {}, signal?: AbortSignal): Promise<RetainedPage> {
      return http.get('mqtt/retainer/messages', RetainedPageSchema, { ...params }, signal)
    },
    /** 404 NOT_FOUND when nothing is retained on `topic`. */
    get(topic: string, signal?: AbortSignal): Promise<RetainedMessage> {
      return http.get(message(topic), RetainedMessageSchema, undefined, signal)
    },
    delete(topic: string): Promise<void> {
      return http.send('delete', message(topic), null)
    },
    /** `DELETE /mqtt/retainer/messages`: every retained message. */
    clear(): Promise<void> {
      return http.send('delete', 'mqtt/retainer/messages', null)
    },
    /** Up to 10 retained topics containing `query`, for completion. */
    async suggest(query: string, signal?: AbortSignal): Promise<string[]> {
      const page = await http.get('mqtt/retainer/messages', RetainedPageSchema, { page: 1, limit: 1000 }, signal)
      const needle = query.trim()
      return page.data.map((m) => m.topic).filter((topic) => topic.includes(needle)).slice(0, 10)
    },
  }
}

export type RetainerApi = ReturnType<typeof retainerApi>
