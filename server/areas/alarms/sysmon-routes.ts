// GET/PUT /configs/alarm: EMQX's alarm settings (actions, size_limit, validity_period).
// GET/PUT /configs/sysmon: EMQX's system monitor settings that drive the alarms. The embedded
// broker honours `os` (CPU, system memory and process memory checks and watermarks) and shows only that; EMQX's
// `vm` and `top` sections (Erlang process counts, long GC, busy ports, top processes) do not exist
// here and are refused. A change is validated whole, stored, and applied at once.
import type { FastifyInstance } from 'fastify'
import { badRequest } from '../../http/errors.ts'
import { objectBody, prepareChange, settingsRoute, unsupportedKeys } from '../../http/settings-route.ts'
import type { AreaDeps } from '../area.ts'
import type { AlarmMonitor } from './feature.ts'
import { alarmSettings, sysmonOsSettings } from './settings.ts'

const ROOTS = ['os']

export async function sysmonRoutes(app: FastifyInstance, deps: AreaDeps<AlarmMonitor>): Promise<void> {
  const { feature: alarms, configs } = deps

  settingsRoute(app, '/configs/alarm', alarmSettings(alarms, configs), 'alarm')

  const os = sysmonOsSettings(alarms, configs)
  app.get('/configs/sysmon', async () => ({ os: alarms.sysmonOs }))

  app.put('/configs/sysmon', async (request) => {
    const body = objectBody(request.body, 'body')
    const problem = unsupportedKeys(body, ROOTS)
    if (problem) throw badRequest(problem)
    if (body.os !== undefined) prepareChange(os, body.os, 'os')()
    return { os: alarms.sysmonOs }
  })
}
