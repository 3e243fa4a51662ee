// GET/PUT /configs/mqtt, GET/PUT /configs/global_zone and GET/PUT /mqtt/sys_topics: the broker's
// MQTT settings as EMQX 5 names and shows them. A change is validated whole (a bad value is a 400
// and changes nothing), stored in SQLite, and applied to the running broker at once. The global
// zone carries the zone-overridable roots the embedded broker implements: `mqtt` and `flapping_detect`.
import type { FastifyInstance } from 'fastify'
import type { Broker } from '../../broker/broker.ts'
import { FlappingConfigSchema } from '../flapping/feature.ts'
import type { Features } from '../../broker/features/index.ts'
import { mergeObjects } from '../../http/merge.ts'
import { mqttSettingsPatchSchema, sysTopicsPatchSchema, type MqttSettingsPatch } from '../../broker/settings.ts'
import type { Database } from '../../store/db.ts'
import { SettingsRepository } from '../../store/settings.ts'
import { badRequest, parseInput } from '../../http/errors.ts'

/** Keys under which the settings are stored in the `settings` table. */
export const MQTT_SETTINGS_KEY = 'mqtt'
export const SYS_TOPICS_KEY = 'sys_topics'

const objectBody = (body: unknown, what: string): Record<string, unknown> => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(`${what} must be a JSON object`)
  return body as Record<string, unknown>
}

/** The global zone's roots the embedded broker has; EMQX's others (force_gc, overload_protection...) do not exist here. */
const ZONE_ROOTS = ['mqtt', 'flapping_detect']

export async function configRoutes(app: FastifyInstance, deps: { broker: Broker; db: Database; features: Features }): Promise<void> {
  const { broker, features } = deps
  const store = new SettingsRepository(deps.db)

  const applyMqtt = (patch: MqttSettingsPatch) => {
    const settings = broker.configure(patch)
    store.set(MQTT_SETTINGS_KEY, settings)
    return settings
  }

  app.get('/configs/mqtt', async () => broker.settings)

  app.put('/configs/mqtt', async (request) => {
    const patch = parseInput(mqttSettingsPatchSchema, objectBody(request.body, 'body'), 'mqtt')
    return applyMqtt(patch)
  })

  // EMQX 5 shows the global zone as its root sections; the MQTT one carries the session settings.
  const globalZone = () => ({ mqtt: broker.settings, flapping_detect: features.flapping.config })
  app.get('/configs/global_zone', async () => globalZone())

  // Only the roots present change; every one is validated before any is applied.
  app.put('/configs/global_zone', async (request) => {
    const body = objectBody(request.body, 'body')
    const unknown = Object.keys(body).filter((root) => !ZONE_ROOTS.includes(root))
    if (unknown.length > 0) throw badRequest(`not supported by the embedded broker: ${unknown.join(', ')} (supported: ${ZONE_ROOTS.join(', ')})`)
    const mqtt = body.mqtt === undefined ? undefined : parseInput(mqttSettingsPatchSchema, objectBody(body.mqtt, 'mqtt'), 'mqtt')
    const flapping =
      body.flapping_detect === undefined
        ? undefined
        : parseInput(FlappingConfigSchema, mergeObjects(features.flapping.config, objectBody(body.flapping_detect, 'flapping_detect')), 'flapping_detect')
    if (mqtt) applyMqtt(mqtt)
    if (flapping) {
      features.configs.set('flapping_detect', flapping)
      features.flapping.configure(flapping)
    }
    return globalZone()
  })

  app.get('/mqtt/sys_topics', async () => broker.sysTopics)

  app.put('/mqtt/sys_topics', async (request) => {
    const patch = parseInput(sysTopicsPatchSchema, objectBody(request.body, 'body'), 'sys_topics')
    const settings = broker.configureSysTopics(patch)
    store.set(SYS_TOPICS_KEY, settings)
    return settings
  })
}
