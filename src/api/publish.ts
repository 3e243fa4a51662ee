// Publishing from the API (`/publish`, `/publish/bulk`), as if a client had sent it.
import * as v from 'valibot'
import type { Http } from './http.ts'
import {
  payloadEncodings,
  publishPropertiesSchema,
  publishResultSchema,
  type PayloadEncoding,
  type PublishProperties,
  type PublishResult,
} from '../../contract/publish.ts'

export { payloadEncodings, publishPropertiesSchema, publishResultSchema, type PayloadEncoding, type PublishProperties, type PublishResult }

export interface PublishMessage {
  topic: string
  payload: string
  qos?: 0 | 1 | 2
  retain?: boolean
  payload_encoding?: PayloadEncoding
  properties?: PublishProperties
}

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
