// /alarms: the activated alarms (`activated=true`, the default) or the history (`activated=false`),
// paged; DELETE clears the history; POST /alarms/force_deactivate clears one by hand (a check whose
// condition still holds raises it again, as in EMQX).
import type { FastifyInstance } from 'fastify'
import { AlarmListQuery, alarmsErrors, ForceDeactivateBody, type Alarm, type AlarmPage } from '../../../contract/alarms.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import { rfc3339 } from '../../http/time.ts'
import type { AreaDeps } from '../area.ts'
import type { AlarmMonitor } from './feature.ts'
import type { AlarmRecord } from './store.ts'

/** EMQX's `emqx_alarm:format/2`: `duration` in ms, up to now while activated; no `deactivate_at` then. */
function alarmRecord(alarm: AlarmRecord, node: string, now: number): Alarm {
  return {
    node,
    name: alarm.name,
    message: alarm.message,
    duration: (alarm.deactivateAt ?? now) - alarm.activateAt,
    activate_at: rfc3339(alarm.activateAt),
    ...(alarm.deactivateAt !== undefined ? { deactivate_at: rfc3339(alarm.deactivateAt) } : {}),
    details: alarm.details,
  }
}

export async function alarmRoutes(app: FastifyInstance, deps: AreaDeps<AlarmMonitor>): Promise<void> {
  const { feature: alarms, broker } = deps

  app.get('/alarms', async (request): Promise<AlarmPage> => {
    const q = parseInput(AlarmListQuery, request.query, 'query')
    const { data, count } = alarms.page(q.activated, q.page, q.limit)
    const now = Date.now()
    return {
      data: data.map((alarm) => alarmRecord(alarm, broker.node, now)),
      meta: { page: q.page, limit: q.limit, count, hasnext: q.page * q.limit < count },
    }
  })

  app.delete('/alarms', async (_request, reply) => {
    alarms.clearHistory()
    return reply.status(204).send()
  })

  app.post('/alarms/force_deactivate', async (request, reply) => {
    const { name } = parseInput(ForceDeactivateBody, request.body ?? {}, 'body')
    if (!name) throw contractError(alarmsErrors.nameRequired)
    if (!alarms.deactivate(name)) throw contractError(alarmsErrors.notActivated)
    return reply.status(204).send()
  })
}
