// The retainer: its settings (`/mqtt/retainer`) and the retained messages it holds.
import * as v from 'valibot'
import { paged, type Http } from './http.ts'
import { pathSegment } from './clients.ts'
import { queryPaging, queryText } from './listQuery.ts'

/** EMQX writes durations and sizes as strings ('1h', '1MB'); some versions send plain numbers. */
const durationOrSize = v.optional(v.union([v.string(), v.number()]))

/**
 * `GET /mqtt/retainer`. Loose: fields this console does not show are kept, so a read-modify-write
 * sends them back unchanged. `max_retained_messages` lives under `backend` in EMQX 5.0–5.x,
 * `batch_read_number` under `flow_control`.
 */
export const retainerSettingsSchema = v.looseObject({
  enable: v.optional(v.boolean()),
  msg_expiry_interval: durationOrSize,
  msg_clear_interval: durationOrSize,
  max_payload_size: durationOrSize,
  stop_publish_clear_msg: v.optional(v.boolean()),
  delivery_rate: v.nullish(v.union([v.string(), v.number()])),
  max_retained_messages: v.optional(v.number()),
  flow_control: v.optional(
    v.looseObject({
      batch_read_number: v.optional(v.number()),
      batch_deliver_number: v.optional(v.number()),
    }),
  ),
  backend: v.optional(
    v.looseObject({
      type: v.optional(v.string()),
      storage_type: v.optional(v.string()),
      max_retained_messages: v.optional(v.number()),
    }),
  ),
})
export type RetainerSettings = v.InferOutput<typeof retainerSettingsSchema>

const messageFields = {
  topic: v.string(),
  msgid: v.nullish(v.string()),
  qos: v.optional(v.number()),
  publish_at: v.nullish(v.union([v.string(), v.number()])),
  from_clientid: v.nullish(v.string()),
  from_username: v.nullish(v.string()),
}

/** An item of `GET /mqtt/retainer/messages` (no payload). */
export const retainedSummarySchema = v.object(messageFields)
export type RetainedSummary = v.InferOutput<typeof retainedSummarySchema>

/** `GET /mqtt/retainer/message/{topic}`: the payload is base64. */
export const retainedMessageSchema = v.object({ ...messageFields, payload: v.optional(v.string()) })
export type RetainedMessage = v.InferOutput<typeof retainedMessageSchema>

export const retainedPageSchema = paged(retainedSummarySchema)
export type RetainedPage = v.InferOutput<typeof retainedPageSchema>

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
      return http.get('mqtt/retainer', retainerSettingsSchema, undefined, signal)
    },
    updateSettings(settings: RetainerSettings): Promise<RetainerSettings> {
      return http.send('put', 'mqtt/retainer', retainerSettingsSchema, settings)
    },
    messages(params: RetainedListParams = {}, signal?: AbortSignal): Promise<RetainedPage> {
      return http.get('mqtt/retainer/messages', retainedPageSchema, { ...params }, signal)
    },
    /** 404 NOT_FOUND when nothing is retained on `topic`. */
    get(topic: string, signal?: AbortSignal): Promise<RetainedMessage> {
      return http.get(message(topic), retainedMessageSchema, undefined, signal)
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
      const page = await http.get('mqtt/retainer/messages', retainedPageSchema, { page: 1, limit: 1000 }, signal)
      const needle = query.trim()
      return page.data.map((m) => m.topic).filter((topic) => topic.includes(needle)).slice(0, 10)
    },
  }
}

export type RetainerApi = ReturnType<typeof retainerApi>
