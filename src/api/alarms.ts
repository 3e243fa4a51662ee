// Alarms (EMQX `/alarms`): the activated ones (`activated=true`, the default) or the history
// (`activated=false`), paged; DELETE clears the history. EMQX 5 has no manual deactivation:
// an alarm clears when its condition does.
import * as v from 'valibot'
import type { Http } from './http.ts'
import { paged } from './http.ts'

export const alarmSchema = v.object({
  node: v.string(),
  name: v.string(),
  message: v.string(),
  /** e.g. `{usage, high_watermark}` for `high_system_memory_usage`. */
  details: v.optional(v.unknown()),
  /** Milliseconds active: up to now while activated, until deactivation in the history. */
  duration: v.number(),
  /** RFC 3339 with milliseconds. */
  activate_at: v.string(),
  /** History only. */
  deactivate_at: v.optional(v.string()),
})
export type Alarm = v.InferOutput<typeof alarmSchema>

export const alarmPageSchema = paged(alarmSchema)
export type AlarmPage = v.InferOutput<typeof alarmPageSchema>

export function alarmsApi(http: Http) {
  return {
    /** `activated: false` lists the history. */
    list(params: { activated?: boolean; page?: number; limit?: number } = {}, signal?: AbortSignal): Promise<AlarmPage> {
      return http.get('alarms', alarmPageSchema, { ...params }, signal)
    },
    /** Deletes every deactivated alarm (the history); activated ones stay. */
    clearHistory(): Promise<void> {
      return http.send('delete', 'alarms', null)
    },
  }
}

export type AlarmsApi = ReturnType<typeof alarmsApi>
