// Delayed publish (EMQX `/mqtt/delayed`), written once for the server and the browser: the settings
// as read, the waiting messages, the list query and the errors.
import * as v from 'valibot'
import { pagingEntries } from './paging.ts'

/** `GET /mqtt/delayed`: loose, so a read-modify-write keeps what this console does not know. */
export const DelayedSettingsSchema = v.looseObject({
  enable: v.boolean(),
  /** 0 means no limit. */
  max_delayed_messages: v.optional(v.number()),
})
export type DelayedSettings = v.InferOutput<typeof DelayedSettingsSchema>

export const DelayedListQuery = v.object(pagingEntries(100))

const messageFields = {
  /** A hex string in EMQX 5 (its swagger says integer). */
  msgid: v.union([v.string(), v.number()]),
  node: v.string(),
  /** RFC 3339. */
  publish_at: v.nullish(v.union([v.string(), v.number()])),
  /** Seconds. */
  delayed_interval: v.optional(v.number()),
  delayed_remaining: v.optional(v.number()),
  expected_at: v.nullish(v.union([v.string(), v.number()])),
  topic: v.string(),
  qos: v.optional(v.number()),
  from_clientid: v.nullish(v.string()),
  from_username: v.nullish(v.string()),
}

/** An item of the list; one message by id adds `payload` (base64, or `PAYLOAD_TOO_LARGE` past 2048 bytes). */
export const DelayedMessageSchema = v.object({ ...messageFields, payload: v.optional(v.string()) })
export type DelayedMessage = v.InferOutput<typeof DelayedMessageSchema>

/** EMQX's delayed list meta has no `hasnext` in some versions. */
export const DelayedPageSchema = v.object({
  data: v.array(DelayedMessageSchema),
  meta: v.object({
    page: v.optional(v.number()),
    limit: v.optional(v.number()),
    count: v.optional(v.number()),
    hasnext: v.optional(v.boolean()),
  }),
})
export type DelayedPage = v.InferOutput<typeof DelayedPageSchema>

/** The errors of this area: status and EMQX code. */
export const delayedErrors = {
  invalidNode: { status: 400, code: 'INVALID_NODE' },
  badMessageId: { status: 400, code: 'MESSAGE_ID_SCHEMA_ERROR' },
  messageIdNotFound: { status: 404, code: 'MESSAGE_ID_NOT_FOUND' },
  invalidTopic: { status: 400, code: 'INVALID_TOPIC_NAME' },
  topicNotFound: { status: 404, code: 'MESSAGE_NOT_FOUND' },
} as const
