// GET/PUT /configs/mqtt, GET/PUT /configs/global_zone and GET/PUT /mqtt/sys_topics: the broker's
// MQTT settings as EMQX 5 names and shows them. A change is validated whole (a bad value is a 400
// and changes nothing), stored in SQLite, and applied to the running broker at once. The global
// zone carries the zone-overridable roots the embedded broker implements: `mqtt` and `flapping_detect`.
import type { FastifyInstance } from 'fastify'
import { badRequest } from '../../http/errors.ts'
import { objectBody, prepareChange, settingsRoute, unsupportedKeys } from '../../http/settings-route.ts'
import type { SettingsRepository } from '../../store/settings.ts'
import type { AreaDeps } from '../area.ts'
import { flappingArea } from '../flapping/index.ts'
import { flappingSettings } from '../flapping/settings.ts'
import { mqttSettings, sysTopicsSettings } from './settings.ts'

/** The global zone's roots the embedded broker has; EMQX's others (force_gc, overload_protection...) do not exist here. */
const ZONE_ROOTS = ['mqtt', 'flapping_detect']

export async function configRoutes(app: FastifyInstance, deps: AreaDeps<SettingsRepository>): Promise<void> {
  const { broker } = deps
  const mqtt = mqttSettings(broker, deps.feature)
  const flapping = flappingSettings(deps.use(flappingArea), deps.configs)

  settingsRoute(app, '/configs/mqtt', mqtt, 'mqtt')

  // EMQX 5 shows the global zone as its root sections; the MQTT one carries the session settings.
  const globalZone = () => ({ mqtt: mqtt.current(), flapping_detect: flapping.current() })
  app.get('/configs/global_zone', async () => globalZone())

  // Only the roots present change; every one is validated before any is applied.
  app.put('/configs/global_zone', async (request) => {
    const body = objectBody(request.body, 'body')
    const problem = unsupportedKeys(body, ZONE_ROOTS)
    if (problem) throw badRequest(problem)
    const changes = [
      ...(body.mqtt !== undefined ? [prepareChange(mqtt, body.mqtt, 'mqtt')] : []),
      ...(body.flapping_detect !== undefined ? [prepareChange(flapping, body.flapping_detect, 'flapping_detect')] : []),
    ]
    for (const change of changes) change()
    return globalZone()
  })

  settingsRoute(app, '/mqtt/sys_topics', sysTopicsSettings(broker, deps.feature), 'sys_topics')
}
