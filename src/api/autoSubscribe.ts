// Auto-subscribe (`/mqtt/auto_subscribe`): topics every client is subscribed to on connect;
// placeholders ${clientid}, ${username} and ${host} are filled per client.
import * as v from 'valibot'
import { AutoSubscribeResponseSchema, type AutoSubscription } from '../../contract/auto-subscribe.ts'
import type { Http } from './http.ts'

export { AutoSubscriptionSchema as autoSubscriptionSchema, type AutoSubscription } from '../../contract/auto-subscribe.ts'

const responseSchema = AutoSubscribeResponseSchema

function unwrap(response: v.InferOutput<typeof responseSchema>): AutoSubscription[] {
  return Array.isArray(response) ? response : response.topics
}

export function autoSubscribeApi(http: Http) {
  return {
    async list(signal?: AbortSignal): Promise<AutoSubscription[]> {
      return unwrap(await http.get('mqtt/auto_subscribe', responseSchema, undefined, signal))
    },
    /** Replaces the whole list (409 EXCEED_LIMIT past the configured maximum). */
    async replace(topics: AutoSubscription[]): Promise<AutoSubscription[]> {
      return unwrap(await http.send('put', 'mqtt/auto_subscribe', responseSchema, topics))
    },
  }
}

export type AutoSubscribeApi = ReturnType<typeof autoSubscribeApi>
