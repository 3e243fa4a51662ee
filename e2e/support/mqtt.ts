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

/** A client that reconnects on its own after `reconnectPeriod` ms, as a device does; resolved once connected. */
export async function connectReconnecting(clientId: string, reconnectPeriod: number, protocolVersion: 4 | 5 = 5): Promise<MqttClient> {
  const client = mqtt.connect(`mqtt://127.0.0.1:${E2E_MQTT_PORT}`, { clientId, protocolVersion, reconnectPeriod })
  await connected(client)
  return client
}

/** The client's next CONNACK (after a reconnection), or at once when it is connected now and `now` is true. */
export function connected(client: MqttClient, now = true): Promise<void> {
  return new Promise((resolve) => {
    if (now && client.connected) return resolve()
    client.once('connect', () => resolve())
  })
}
