// Real MQTT clients for e2e journeys, connected to the e2e server's embedded broker.
import mqtt, { type MqttClient } from 'mqtt'
import { E2E_MQTT_PORT } from './env.ts'

/** Connects, or rejects with the broker's refusal; `login` gives a username and password. */
export async function connectClient(clientId: string, protocolVersion: 4 | 5 = 4, login: { username?: string; password?: string } = {}): Promise<MqttClient> {
  const client = mqtt.connect(`mqtt://127.0.0.1:${E2E_MQTT_PORT}`, { clientId, protocolVersion, reconnectPeriod: 0, ...login })
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve())
    client.once('error', reject)
  })
  return client
}

export function closed(client: MqttClient): Promise<void> {
  return new Promise((resolve) => {
    if (!client.connected) return resolve()
    client.once('close', () => resolve())
  })
}
