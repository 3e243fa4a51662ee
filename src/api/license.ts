// The enterprise license (EMQX enterprise `GET /license`). Community EMQX, and the embedded
// server, have no such endpoint. Loose: fields differ between releases (max_connections became
// max_sessions in 5.9).
import * as v from 'valibot'
import type { Http } from './http.ts'

export const licenseSchema = v.looseObject({
  customer: v.optional(v.string()),
  email: v.optional(v.string()),
  deployment: v.optional(v.string()),
  /** 'trial' or 'official'. */
  type: v.optional(v.string()),
  customer_type: v.optional(v.number()),
  max_connections: v.optional(v.number()),
  max_sessions: v.optional(v.number()),
  start_at: v.optional(v.string()),
  expiry_at: v.optional(v.string()),
  /** True once expired. */
  expiry: v.optional(v.boolean()),
})
export type License = v.InferOutput<typeof licenseSchema>

export function licenseApi(http: Http) {
  return {
    get(signal?: AbortSignal): Promise<License> {
      return http.get('license', licenseSchema, undefined, signal)
    },
  }
}
