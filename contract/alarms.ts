// Alarms (EMQX `/alarms`, `/configs/alarm`, `/configs/sysmon`), written once for the server and the
// browser: the list query, the alarm record, and the settings as they are read.
import * as v from 'valibot'
import { paged, pagingEntries } from './paging.ts'

/** `GET /alarms`: `activated=true` (the default) lists the active alarms, `false` the history. */
export const AlarmListQuery = v.object({
  ...pagingEntries(100),
  activated: v.optional(v.pipe(v.picklist(['true', 'false'], 'must be true or false'), v.transform((s) => s === 'true')), 'true'),
})

/** One alarm, as EMQX's `emqx_alarm:format/2` writes it. */
export const AlarmSchema = v.object({
  node: v.string(),
  name: v.string(),
  message: v.string(),
  /** Milliseconds active: up to now while activated, until deactivation in the history. */
  duration: v.number(),
  /** RFC 3339 with milliseconds. */
  activate_at: v.string(),
  /** History only. */
  deactivate_at: v.optional(v.string()),
  /** e.g. `{usage, high_watermark}` for `high_system_memory_usage`. */
  details: v.optional(v.unknown()),
})
export type Alarm = v.InferOutput<typeof AlarmSchema>

/** `POST /alarms/force_deactivate`: the alarm to clear by hand (it is raised again while its condition holds). */
export const ForceDeactivateBody = v.object({ name: v.optional(v.string()) })
export type ForceDeactivate = { name: string }

export const alarmsErrors = {
  /** 400: no `name`, or an empty one. */
  nameRequired: { status: 400, code: 'INVALID_PARAMETER', message: 'name is required' },
  /** 400 (not 404, as 5.8.9 answers): no activated alarm of that name. */
  notActivated: { status: 400, code: 'NOT_FOUND', message: 'Alarm not found or already deactivated' },
} as const

export const AlarmPageSchema = paged(AlarmSchema)
export type AlarmPage = v.InferOutput<typeof AlarmPageSchema>

/**
 * `/configs/sysmon` as read: percentages and durations are strings such as `"70%"` and `"60s"`. A real
 * EMQX also shows `vm` and `top`; the embedded broker has only `os`. Loose, so a read-modify-write
 * sends back what this console does not know.
 */
export const SysmonSchema = v.looseObject({
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
export type Sysmon = v.InferOutput<typeof SysmonSchema>

/** `/configs/alarm` as read: `actions` (`log`, `publish`), `size_limit` of the history, `validity_period` (e.g. `"24h"`). */
export const AlarmConfigReadSchema = v.looseObject({
  actions: v.array(v.string()),
  size_limit: v.number(),
  validity_period: v.string(),
})
export type AlarmConfig = v.InferOutput<typeof AlarmConfigReadSchema>
