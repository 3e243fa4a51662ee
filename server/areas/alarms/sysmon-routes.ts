// GET/PUT /configs/alarm: EMQX's alarm settings (actions, size_limit, validity_period).
// GET/PUT /configs/sysmon: EMQX's system monitor settings that drive the alarms. The embedded
// broker honours `os` (CPU, system memory and process memory checks and watermarks) and shows only that; EMQX's
// `vm` and `top` sections (Erlang process counts, long GC, busy ports, top processes) do not exist
// here and are refused. A change is validated whole, stored, and applied at once.
import type { FastifyInstance } from 'fastify'
import { AlarmConfigSchema, SysmonOsSchema } from './feature.ts'
import type { Features } from '../../broker/features/index.ts'
import { mergeObjects } from '../../http/merge.ts'
import { badRequest, parseInput } from '../../http/errors.ts'

const ROOTS = ['os']

export async function sysmonRoutes(app: FastifyInstance, deps: { features: Features }): Promise<void> {
  const { alarms, configs } = deps.features

  app.get('/configs/alarm', async () => alarms.config)

  app.put('/configs/alarm', async (request) => {
    const body = request.body
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body must be a JSON object')
    // Lists replace, as in EMQX's config update; the other fields merge into the current settings.
    const next = parseInput(AlarmConfigSchema, { ...alarms.config, ...body }, 'alarm')
    configs.set('alarm', next)
    alarms.configureAlarm(next)
    return alarms.config
  })

  app.get('/configs/sysmon', async () => ({ os: alarms.sysmonOs }))

  app.put('/configs/sysmon', async (request) => {
    const body = request.body
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body must be a JSON object')
    const unknown = Object.keys(body).filter((root) => !ROOTS.includes(root))
    if (unknown.length > 0) throw badRequest(`not supported by the embedded broker: ${unknown.join(', ')} (supported: ${ROOTS.join(', ')})`)
    const os = (body as { os?: unknown }).os
    if (os !== undefined) {
      if (typeof os !== 'object' || os === null || Array.isArray(os)) throw badRequest('os must be a JSON object')
      const known = Object.keys(alarms.sysmonOs)
      const extra = Object.keys(os).filter((key) => !known.includes(key))
      if (extra.length > 0) throw badRequest(`os: not supported by the embedded broker: ${extra.join(', ')} (supported: ${known.join(', ')})`)
      const next = parseInput(SysmonOsSchema, mergeObjects(alarms.sysmonOs, os as Record<string, unknown>), 'os')
      configs.set('sysmon_os', next)
      alarms.configure(next)
    }
    return { os: alarms.sysmonOs }
  })
}
