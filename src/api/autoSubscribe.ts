// Auto-subscribe (`/mqtt/auto_subscribe`): topics every client is subscribed to on connect;
// placeholders ${clientid}, ${username} and ${host} are filled per client.
import * as v from 'valibot'
import type { Http } from './http.ts'

export const autoSubscriptionSchema = v.object({
  topic: v.string(),
  qos: v.optional(v.number(), 0),
  nl: v.optional(v.number(), 0),
  rap: v.optional(v.number(), 0),
  rh: v.optional(v.number(), 0),
})
export type AutoSubscription = v.InferOutput<typeof autoSubscriptionSchema>

const listSchema = v.array(autoSubscriptionSchema)
/** EMQX 5.0 wrapped the list as `{topics: [...]}`; later versions send the array. */
const responseSchema = v.union([listSchema, v.object({ topics: listSchema })])

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
