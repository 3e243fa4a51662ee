// The fields of a message as EMQX lists it (retained messages, a client's queue and inflight window),
// written once for the contracts that list messages.
import * as v from 'valibot'

/** valibot entries: spread into an object schema with the list's own fields. */
export const messageFields = {
  /** Hex. */
  msgid: v.nullish(v.string()),
  topic: v.string(),
  qos: v.optional(v.number()),
  /** RFC 3339 (retained) or epoch milliseconds (queue, inflight). */
  publish_at: v.nullish(v.union([v.string(), v.number()])),
  from_clientid: v.nullish(v.string()),
  from_username: v.nullish(v.string()),
}
