// GET/PUT /configs/mqtt, GET/PUT /configs/global_zone and GET/PUT /mqtt/sys_topics: the broker's
// MQTT settings as EMQX 5 names and shows them. A change is validated whole (a bad value is a 400
// and changes nothing), stored in SQLite, and applied to the running broker at once.
import type { FastifyInstance } from 'fastify'
import type { Broker } from '../broker/broker.ts'
import { mqttSettingsPatchSchema, sysTopicsPatchSchema, type MqttSettingsPatch } from '../broker/settings.ts'
import type { Database } from '../store/db.ts'
import { SettingsRepository } from '../store/settings.ts'
import { badRequest, parseInput } from './errors.ts'

/** Keys under which the settings are stored in the `settings` table. */
export const MQTT_SETTINGS_KEY = 'mqtt'
export const SYS_TOPICS_KEY = 'sys_topics'

const objectBody = (body: unknown, what: string): Record<string, unknown> => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(`${what} must be a JSON object`)
  return body as Record<string, unknown>
}

export async function configRoutes(app: FastifyInstance, deps: { broker: Broker; db: Database }): Promise<void> {
  const { broker } = deps
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
  app.get('/configs/global_zone', async () => ({ mqtt: broker.settings }))

  app.put('/configs/global_zone', async (request) => {
    const body = objectBody(request.body, 'body')
    // Other zone sections (flapping_detect, force_shutdown, ...) are accepted and left to their own endpoints.
    if (body.mqtt === undefined) return { mqtt: broker.settings }
    const patch = parseInput(mqttSettingsPatchSchema, objectBody(body.mqtt, 'mqtt'), 'mqtt')
    return { mqtt: applyMqtt(patch) }
  })

  app.get('/mqtt/sys_topics', async () => broker.sysTopics)

  app.put('/mqtt/sys_topics', async (request) => {
    const patch = parseInput(sysTopicsPatchSchema, objectBody(request.body, 'body'), 'sys_topics')
    const settings = broker.configureSysTopics(patch)
    store.set(SYS_TOPICS_KEY, settings)
    return settings
  })
}
