// The retainer (EMQX `/mqtt/retainer`), written once for the server and the browser: the settings as
// read, the retained messages and the errors.
import * as v from 'valibot'
import { messageFields } from './message.ts'
import { paged } from './paging.ts'

/** EMQX writes durations and sizes as strings ('1h', '1MB'); some versions send plain numbers. */
const durationOrSize = v.optional(v.union([v.string(), v.number()]))

/**
 * `GET /mqtt/retainer` as read. Loose: fields this console does not show are kept, so a
 * read-modify-write sends them back unchanged. `max_retained_messages` lives under `backend` in
 * EMQX 5.0–5.x, `batch_read_number` under `flow_control`.
 */
export const RetainerSettingsSchema = v.looseObject({
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
export type RetainerSettings = v.InferOutput<typeof RetainerSettingsSchema>

/** An item of `GET /mqtt/retainer/messages` (no payload). */
export const RetainedSummarySchema = v.object(messageFields)
export type RetainedSummary = v.InferOutput<typeof RetainedSummarySchema>

/** `GET /mqtt/retainer/message/{topic}`: the payload in base64, left out past 1 MB. */
export const RetainedMessageSchema = v.object({ ...messageFields, payload: v.optional(v.string()) })
export type RetainedMessage = v.InferOutput<typeof RetainedMessageSchema>

/** The list; `meta.count` only without a `topic` filter, as EMQX counts. */
export const RetainedPageSchema = paged(RetainedSummarySchema)
export type RetainedPage = v.InferOutput<typeof RetainedPageSchema>

export const retainerErrors = {
  /** 404: nothing is retained on the topic. */
  notFound: { status: 404, code: 'NOT_FOUND' },
} as const
