// Topics, the routing table (EMQX `GET /topics` and `GET /topics/{topic}`), written once for the
// server and the browser: the list query, the route record, the page and the errors.
import * as v from 'valibot'
import { paged, pagingEntries } from './paging.ts'

/** `GET /topics`: `topic` is the exact topic (filter) as subscribed, e.g. `sensors/+/temp`. */
export const TopicListQuery = v.object({
  ...pagingEntries(100),
  topic: v.optional(v.string()),
  node: v.optional(v.string()),
})

/** One route as this server writes it: a subscribed filter (shared ones with `$share/<group>/`) and its node. */
export const TopicRecordSchema = v.object({ topic: v.string(), node: v.string() })
export type TopicRecord = v.InferOutput<typeof TopicRecordSchema>

export const TopicRecordPageSchema = paged(TopicRecordSchema)
/** `GET /topics/{topic}`: the topic's routes, one a node. */
export const TopicRecordListSchema = v.array(TopicRecordSchema)

/** One route as the browser reads it, from this server or any EMQX 5. */
export const topicSchema = v.object({
  topic: v.string(),
  node: v.nullish(v.string()),
  /** Durable sessions' routes name the session instead of a node (EMQX 5.5+). */
  session: v.nullish(v.string()),
})
export type Topic = v.InferOutput<typeof topicSchema>

export const topicPageSchema = paged(topicSchema)
export type TopicPage = v.InferOutput<typeof topicPageSchema>

/** The errors of this area: status and EMQX code. */
export const topicsErrors = {
  /** 400: a bad query (page or limit out of range, another node). */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 404: no route for the topic. */
  notFound: { status: 404, code: 'TOPIC_NOT_FOUND', message: 'Topic not found' },
} as const
