// Publishing from the API (`/publish`, `/publish/bulk`), as if a client had sent it.
import * as v from 'valibot'
import type { Http } from './http.ts'

export const payloadEncodings = ['plain', 'base64'] as const
export type PayloadEncoding = (typeof payloadEncodings)[number]

/** MQTT 5 publish properties EMQX passes on to subscribers. */
export const publishPropertiesSchema = v.object({
  payload_format_indicator: v.optional(v.picklist([0, 1])),
  message_expiry_interval: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  response_topic: v.optional(v.string()),
  correlation_data: v.optional(v.string()),
  user_properties: v.optional(v.record(v.string(), v.string())),
  content_type: v.optional(v.string()),
})
export type PublishProperties = v.InferOutput<typeof publishPropertiesSchema>

export interface PublishMessage {
  topic: string
  payload: string
  qos?: 0 | 1 | 2
  retain?: boolean
  payload_encoding?: PayloadEncoding
  properties?: PublishProperties
}

/**
 * 200 `{id}` when delivered to at least one subscriber; 202 `{reason_code: 16, message}` when no
 * subscriber matched (the message is still retained if asked).
 */
export const publishResultSchema = v.object({
  id: v.optional(v.string()),
  reason_code: v.optional(v.number()),
  message: v.optional(v.string()),
})
export type PublishResult = v.InferOutput<typeof publishResultSchema>

export function publishApi(http: Http) {
  return {
    one(message: PublishMessage): Promise<PublishResult> {
      return http.send('post', 'publish', publishResultSchema, message)
    },
    /** One result per message, in order. */
    bulk(messages: PublishMessage[]): Promise<PublishResult[]> {
      return http.send('post', 'publish/bulk', v.array(publishResultSchema), messages)
    },
  }
}

export type PublishApi = ReturnType<typeof publishApi>
