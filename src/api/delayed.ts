// Delayed publish (`$delayed/{seconds}/{topic}`): its settings and the messages waiting.
import * as v from 'valibot'
import type { Http } from './http.ts'
import { pathSegment } from './clients.ts'
import { queryPaging } from './listQuery.ts'

export const delayedSettingsSchema = v.looseObject({
  enable: v.boolean(),
  /** 0 means no limit. */
  max_delayed_messages: v.optional(v.number()),
})
export type DelayedSettings = v.InferOutput<typeof delayedSettingsSchema>

const messageFields = {
  /** A hex string in EMQX 5 (the swagger says integer). */
  msgid: v.union([v.string(), v.number()]),
  node: v.string(),
  topic: v.string(),
  qos: v.optional(v.number()),
  publish_at: v.nullish(v.union([v.string(), v.number()])),
  delayed_interval: v.optional(v.number()),
  delayed_remaining: v.optional(v.number()),
  expected_at: v.nullish(v.union([v.string(), v.number()])),
  from_clientid: v.nullish(v.string()),
  from_username: v.nullish(v.string()),
}

export const delayedMessageSchema = v.object({ ...messageFields, payload: v.optional(v.string()) })
export type DelayedMessage = v.InferOutput<typeof delayedMessageSchema>

/** EMQX's delayed list meta has no `hasnext` in some versions. */
export const delayedPageSchema = v.object({
  data: v.array(delayedMessageSchema),
  meta: v.object({
    page: v.optional(v.number()),
    limit: v.optional(v.number()),
    count: v.optional(v.number()),
    hasnext: v.optional(v.boolean()),
  }),
})
export type DelayedPage = v.InferOutput<typeof delayedPageSchema>

/** The query `GET /mqtt/delayed/messages` understands, which the delayed list's URL holds too. */
export const delayedSearch = v.object({ ...queryPaging })
export type DelayedListParams = v.InferOutput<typeof delayedSearch>

export function delayedApi(http: Http) {
  const message = (node: string, msgid: string) => `mqtt/delayed/messages/${pathSegment(node)}/${pathSegment(msgid)}`
  return {
    settings(signal?: AbortSignal): Promise<DelayedSettings> {
      return http.get('mqtt/delayed', delayedSettingsSchema, undefined, signal)
    },
    updateSettings(settings: DelayedSettings): Promise<DelayedSettings> {
      return http.send('put', 'mqtt/delayed', delayedSettingsSchema, settings)
    },
    messages(params: DelayedListParams = {}, signal?: AbortSignal): Promise<DelayedPage> {
      return http.get('mqtt/delayed/messages', delayedPageSchema, { ...params }, signal)
    },
    /** 404 MESSAGE_ID_NOT_FOUND when it was published or deleted already. */
    get(node: string, msgid: string, signal?: AbortSignal): Promise<DelayedMessage> {
      return http.get(message(node, msgid), delayedMessageSchema, undefined, signal)
    },
    delete(node: string, msgid: string): Promise<void> {
      return http.send('delete', message(node, msgid), null)
    },
    /** Up to 10 waiting message ids containing `query`, for completion. */
    async suggest(query: string, signal?: AbortSignal): Promise<string[]> {
      const page = await http.get('mqtt/delayed/messages', delayedPageSchema, { page: 1, limit: 100 }, signal)
      const needle = query.trim()
      return page.data.map((m) => String(m.msgid)).filter((id) => id.includes(needle)).slice(0, 10)
    },
  }
}

export type DelayedApi = ReturnType<typeof delayedApi>
