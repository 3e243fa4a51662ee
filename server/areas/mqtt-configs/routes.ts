// GET/PUT /configs/global_zone, /configs/mqtt and /configs/sys_topics: the broker's MQTT settings
// as EMQX 5.8 names and shows them. A change is validated whole (a bad value is a 400 and changes
// nothing), stored in SQLite, and applied to the running broker at once. The global zone shows
// 5.8's five roots: `mqtt` and `flapping_detect` are the broker's; `force_shutdown`, `force_gc` and
// `durable_sessions` (and a few `mqtt` keys, MQTT_KEPT) stay at EMQX's defaults (contract/mqtt-configs.ts).
// `/configs/mqtt` is this server's own (5.8 routes only the zone): the zone's `mqtt` root.
import type { FastifyInstance } from 'fastify'
import { badRequest, parseInput } from '../../http/errors.ts'
import { mergeSettings, objectBody, prepareChange, settingsRoute, unsupportedKeys } from '../../http/settings-route.ts'
import type { SettingsRepository } from '../../store/settings.ts'
import type { AreaDeps } from '../area.ts'
import { flappingArea } from '../flapping/index.ts'
import { flappingSettings } from '../flapping/settings.ts'
import { mqttSettings, sysTopicsSettings } from './settings.ts'
import { KEPT_ROOTS, keptRootSchemas, type KeptRoot } from '../../../contract/mqtt-configs.ts'

const ZONE_ROOTS = ['mqtt', 'flapping_detect', ...Object.keys(KEPT_ROOTS)]

export async function configRoutes(app: FastifyInstance, deps: AreaDeps<SettingsRepository>): Promise<void> {
  const { broker } = deps
  const mqtt = mqttSettings(broker, deps.feature)
  const flapping = flappingSettings(deps.use(flappingArea), deps.configs)

  settingsRoute(app, '/configs/mqtt', mqtt, 'mqtt')

  const globalZone = () => ({ mqtt: mqtt.current(), flapping_detect: flapping.current(), ...structuredClone(KEPT_ROOTS) })
  app.get('/configs/global_zone', async () => globalZone())

  // Only the roots present change; every one is validated before any is applied.
  app.put('/configs/global_zone', async (request) => {
    const body = objectBody(request.body, 'body')
    const problem = unsupportedKeys(body, ZONE_ROOTS)
    if (problem) throw badRequest(problem)
    const changes: Array<() => void> = []
    if (body.mqtt !== undefined) changes.push(prepareChange(mqtt, body.mqtt, 'mqtt'))
    if (body.flapping_detect !== undefined) changes.push(prepareChange(flapping, body.flapping_detect, 'flapping_detect'))
    for (const root of Object.keys(KEPT_ROOTS) as KeptRoot[]) {
      if (body[root] !== undefined) parseInput(keptRootSchemas[root], mergeSettings(KEPT_ROOTS[root], objectBody(body[root], root)), root)
    }
    for (const change of changes) change()
    return globalZone()
  })

  settingsRoute(app, '/configs/sys_topics', sysTopicsSettings(broker, deps.feature), 'sys_topics')
}
