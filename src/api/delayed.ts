// Delayed publish (`$delayed/{seconds}/{topic}`): its settings and the messages waiting.
import * as v from 'valibot'
import {
  DelayedMessageSchema,
  DelayedPageSchema,
  DelayedSettingsSchema,
  type DelayedMessage,
  type DelayedPage,
  type DelayedSettings,
} from '../../contract/delayed.ts'
import type { Http } from './http.ts'
import { pathSegment } from './clients.ts'
import { queryPaging } from './listQuery.ts'

export type { DelayedMessage, DelayedPage, DelayedSettings } from '../../contract/delayed.ts'

/** The query `GET /mqtt/delayed/messages` understands, which the delayed list's URL holds too. */
export const delayedSearch = v.object({ ...queryPaging })
export type DelayedListParams = v.InferOutput<typeof delayedSearch>

export function delayedApi(http: Http) {
  const message = (node: string, msgid: string) => `mqtt/delayed/messages/${pathSegment(node)}/${pathSegment(msgid)}`
  return {
    settings(signal?: AbortSignal): Promise<DelayedSettings> {
      return http.get('mqtt/delayed', DelayedSettingsSchema, undefined, signal)
    },
    updateSettings(settings: DelayedSettings): Promise<DelayedSettings> {
      return http.send('put', 'mqtt/delayed', DelayedSettingsSchema, settings)
    },
    messages(params: DelayedListParams = {}, signal?: AbortSignal): Promise<DelayedPage> {
      return http.get('mqtt/delayed/messages', DelayedPageSchema, { ...params }, signal)
    },
    /** 404 MESSAGE_ID_NOT_FOUND when it was published or deleted already. */
    get(node: string, msgid: string, signal?: AbortSignal): Promise<DelayedMessage> {
      return http.get(message(node, msgid), DelayedMessageSchema, undefined, signal)
    },
    delete(node: string, msgid: string): Promise<void> {
      return http.send('delete', message(node, msgid), null)
    },
    /** Up to 10 waiting message ids containing `query`, for completion. */
    async suggest(query: string, signal?: AbortSignal): Promise<string[]> {
      const page = await http.get('mqtt/delayed/messages', DelayedPageSchema, { page: 1, limit: 100 }, signal)
      const needle = query.trim()
      return page.data.map((m) => String(m.msgid)).filter((id) => id.includes(needle)).slice(0, 10)
    },
  }
}

export type DelayedApi = ReturnType<typeof delayedApi>
