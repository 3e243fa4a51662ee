// Alarms (EMQX `/alarms`): the activated ones (`activated=true`, the default) or the history
// (`activated=false`), paged; DELETE clears the history; force_deactivate clears one alarm by hand.
import * as v from 'valibot'
import {
  AlarmConfigReadSchema,
  AlarmPageSchema,
  SysmonSchema,
  type AlarmConfig,
  type AlarmPage,
  type ForceDeactivate,
  type Sysmon,
} from '../../contract/alarms.ts'
import type { Http } from './http.ts'
import { queryBoolean, queryPaging } from './listQuery.ts'

export { type Alarm, type AlarmConfig, type AlarmPage, type Sysmon } from '../../contract/alarms.ts'

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
      return http.get('alarms', AlarmPageSchema, { ...params }, signal)
    },
    /** Clears one activated alarm by hand; a check whose condition still holds raises it again. */
    forceDeactivate(body: ForceDeactivate): Promise<void> {
      return http.send('post', 'alarms/force_deactivate', null, body)
    },
    /** Deletes every deactivated alarm (the history); activated ones stay. */
    clearHistory(): Promise<void> {
      return http.send('delete', 'alarms', null)
    },
  }
}

export type AlarmsApi = ReturnType<typeof alarmsApi>

export function sysmonApi(http: Http) {
  return {
    get(signal?: AbortSignal): Promise<Sysmon> {
      return http.get('configs/sysmon', SysmonSchema, undefined, signal)
    },
    /** Only the sections given change (EMQX merges the update into the current settings). */
    update(changes: { os?: Record<string, string> }): Promise<Sysmon> {
      return http.send('put', 'configs/sysmon', SysmonSchema, changes)
    },
  }
}

export function alarmConfigApi(http: Http) {
  return {
    get(signal?: AbortSignal): Promise<AlarmConfig> {
      return http.get('configs/alarm', AlarmConfigReadSchema, undefined, signal)
    },
    update(changes: Partial<AlarmConfig>): Promise<AlarmConfig> {
      return http.send('put', 'configs/alarm', AlarmConfigReadSchema, changes)
    },
  }
}
