// Ports and paths the e2e suite's embedded server uses; chosen away from EMQX's defaults so a running console does not clash.
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const E2E_PORT = Number(process.env.E2E_PORT ?? 28083)
export const E2E_MQTT_PORT = Number(process.env.E2E_MQTT_PORT ?? 21883)
export const E2E_WS_PORT = Number(process.env.E2E_WS_PORT ?? 28084)
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? join(tmpdir(), `emqx-console-e2e-${E2E_PORT}`)
export const baseURL = `http://127.0.0.1:${E2E_PORT}`
