// Alarms (EMQX `/alarms`): the activated ones (`activated=true`, the default) or the history
// (`activated=false`), paged; DELETE clears the history. EMQX 5 has no manual deactivation:
// an alarm clears when its condition does.
import * as v from 'valibot'
import type { Http } from './http.ts'
import { paged } from './http.ts'
import { queryBoolean, queryPaging } from './listQuery.ts'

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

/**
 * The query `GET /alarms` understands. The alarm screens keep `activated` in their path (current
 * or history), so their URL holds only the paging.
 */
export const alarmsSearch = v.object({ activated: v.optional(queryBoolean()), ...queryPaging })
export type AlarmListParams = v.InferOutput<typeof alarmsSearch>

export function alarmsApi(http: Http) {
  return {
    /** `activated: false` lists the history. */
    list(params: AlarmListParams = {}, signal?: AbortSignal): Promise<AlarmPage> {
      return http.get('alarms', alarmPageSchema, { ...params }, signal)
    },
    /** Deletes every deactivated alarm (the history); activated ones stay. */
    clearHistory(): Promise<void> {
      return http.send('delete', 'alarms', null)
    },
  }
}

export type AlarmsApi = ReturnType<typeof alarmsApi>

/**
 * EMQX's `/configs/sysmon` (the alarm settings). Percentages and durations are strings such as
 * `"70%"` and `"60s"`. A real EMQX also shows `vm` and `top`; the embedded broker only has `os`.
 */
export const sysmonSchema = v.looseObject({
  os: v.looseObject({
    cpu_check_interval: v.optional(v.string()),
    cpu_high_watermark: v.optional(v.string()),
    cpu_low_watermark: v.optional(v.string()),
    /** A duration or `disabled`. */
    mem_check_interval: v.optional(v.string()),
    sysmem_high_watermark: v.optional(v.string()),
    procmem_high_watermark: v.optional(v.string()),
  }),
  vm: v.optional(v.record(v.string(), v.unknown())),
  top: v.optional(v.record(v.string(), v.unknown())),
})
export type Sysmon = v.InferOutput<typeof sysmonSchema>

export function sysmonApi(http: Http) {
  return {
    get(signal?: AbortSignal): Promise<Sysmon> {
      return http.get('configs/sysmon', sysmonSchema, undefined, signal)
    },
    /** Only the sections given change (EMQX merges the update into the current settings). */
    update(changes: { os?: Record<string, string> }): Promise<Sysmon> {
      return http.send('put', 'configs/sysmon', sysmonSchema, changes)
    },
  }
}

/** EMQX's `/configs/alarm`: `actions` (`log`, `publish`), `size_limit` of the history, `validity_period` (e.g. `"24h"`). */
export const alarmConfigSchema = v.looseObject({
  actions: v.array(v.string()),
  size_limit: v.number(),
  validity_period: v.string(),
})
export type AlarmConfig = v.InferOutput<typeof alarmConfigSchema>

export function alarmConfigApi(http: Http) {
  return {
    get(signal?: AbortSignal): Promise<AlarmConfig> {
      return http.get('configs/alarm', alarmConfigSchema, undefined, signal)
    },
    update(changes: Partial<AlarmConfig>): Promise<AlarmConfig> {
      return http.send('put', 'configs/alarm', alarmConfigSchema, changes)
    },
  }
}
