// Publishing from the API (EMQX `POST /publish` and `POST /publish/bulk`), written once for the
// server and the browser: the message body, the answers (delivered, no subscriber, refused with an
// MQTT reason code), the reason codes and the error.
import * as v from 'valibot'

export const payloadEncodings = ['plain', 'base64'] as const
export type PayloadEncoding = (typeof payloadEncodings)[number]

/** MQTT reason codes EMQX answers beside its message. */
export const PUBLISH_REASON_CODES = {
  noMatchingSubscribers: 16,
  implementationSpecificError: 131,
  topicNameInvalid: 144,
  quotaExceeded: 151,
} as const

const uint32 = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4294967295))

/** MQTT 5 publish properties EMQX passes on to subscribers. */
export const publishPropertiesSchema = v.object({
  payload_format_indicator: v.optional(v.picklist([0, 1], 'must be 0 or 1')),
  message_expiry_interval: v.optional(uint32),
  response_topic: v.optional(v.string()),
  correlation_data: v.optional(v.string()),
  user_properties: v.optional(v.record(v.string(), v.string())),
  content_type: v.optional(v.string()),
})
export type PublishProperties = v.InferOutput<typeof publishPropertiesSchema>

/** One message of `POST /publish` (and of the `/publish/bulk` array). */
export const PublishBody = v.object({
  topic: v.pipe(v.string('is required'), v.minLength(1, 'is required')),
  clientid: v.optional(v.string()),
  payload: v.optional(v.string(), ''),
  payload_encoding: v.optional(v.picklist(payloadEncodings, 'must be plain or base64'), 'plain'),
  qos: v.optional(v.picklist([0, 1, 2], 'must be 0, 1 or 2'), 0),
  retain: v.optional(v.boolean(), false),
  properties: v.optional(publishPropertiesSchema),
})
export type PublishInput = v.InferOutput<typeof PublishBody>

/** `POST /publish/bulk`: at least one message. */
export const PublishBulkBody = v.pipe(v.array(PublishBody), v.minLength(1, 'empty_batch'))

/** 200: delivered to at least one subscriber (or a `$delayed/` message). */
export const PublishedSchema = v.object({ id: v.string() })
/** 202: no subscriber matched (the message is still retained if asked). */
export const NoSubscribersSchema = v.object({
  reason_code: v.literal(PUBLISH_REASON_CODES.noMatchingSubscribers),
  message: v.literal('no_matching_subscribers'),
})
/** One result as this server writes it; `/publish/bulk` answers one per message, in order (202 unless all were delivered). */
export const PublishAnswerSchema = v.union([PublishedSchema, NoSubscribersSchema])
export const PublishBulkAnswerSchema = v.array(PublishAnswerSchema)

/**
 * 400 for a message refused after reading the body: EMQX answers `{reason_code, message}`
 * (144 `topic_name_invalid`, 131 `decode_base64_payload_failed`, 151 `packet_too_large`); this
 * server adds the `code`. In a bulk, one refused message publishes nothing.
 */
export const PublishRefusedSchema = v.object({
  code: v.literal('BAD_REQUEST'),
  reason_code: v.picklist([
    PUBLISH_REASON_CODES.implementationSpecificError,
    PUBLISH_REASON_CODES.topicNameInvalid,
    PUBLISH_REASON_CODES.quotaExceeded,
  ]),
  message: v.string(),
})

/** A result as the browser reads it, from this server or any EMQX 5. */
export const publishResultSchema = v.object({
  id: v.optional(v.string()),
  reason_code: v.optional(v.number()),
  message: v.optional(v.string()),
})
export type PublishResult = v.InferOutput<typeof publishResultSchema>

/** The error of this area: status and EMQX code. */
export const publishErrors = {
  /** 400: a bad body (no topic, a bad qos or encoding, an empty bulk) or a refused message (with reason_code). */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
} as const
