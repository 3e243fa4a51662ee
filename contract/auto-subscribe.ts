// Auto subscribe (EMQX `/mqtt/auto_subscribe`), written once for the server and the browser: the
// topic the server checks and writes, the list as the browser reads it from any EMQX 5, the limit
// and the errors. Placeholders `${clientid}`, `${username}`, `${host}` and `${port}` are filled per client.
import * as v from 'valibot'

/** EMQX refuses more topics than this. */
export const MAX_AUTO_SUBSCRIBE = 20

const flag = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1))

/** One topic as the server checks it (`PUT`'s body is a list of them) and writes it. */
export const AutoSubscribeTopicSchema = v.object({
  topic: v.pipe(v.string(), v.minLength(1, 'is required')),
  qos: v.optional(v.picklist([0, 1, 2], 'must be 0, 1 or 2'), 0),
  rh: v.optional(v.picklist([0, 1, 2], 'must be 0, 1 or 2'), 0),
  rap: v.optional(flag, 0),
  nl: v.optional(flag, 0),
})
export type AutoSubscribeTopic = v.InferOutput<typeof AutoSubscribeTopicSchema>

/** `GET /mqtt/auto_subscribe`, and `PUT`'s answer, from this server: every topic, in order. */
export const AutoSubscribeListSchema = v.array(AutoSubscribeTopicSchema)

/** One topic as the browser reads it. */
export const AutoSubscriptionSchema = v.object({
  topic: v.string(),
  qos: v.optional(v.number(), 0),
  nl: v.optional(v.number(), 0),
  rap: v.optional(v.number(), 0),
  rh: v.optional(v.number(), 0),
})
export type AutoSubscription = v.InferOutput<typeof AutoSubscriptionSchema>

/** The list as the browser reads it: EMQX 5.0 wrapped it as `{topics: [...]}`; later versions send the array. */
export const AutoSubscribeResponseSchema = v.union([v.array(AutoSubscriptionSchema), v.object({ topics: v.array(AutoSubscriptionSchema) })])

/** The errors of this area: status and EMQX code. */
export const autoSubscribeErrors = {
  /** 400: a topic the server refuses (its message names the topic and the field). */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 409 (not 413 as for topic rewrite): more than 20 topics. */
  exceedLimit: { status: 409, code: 'EXCEED_LIMIT' },
} as const
