// The data-integration types this server offers, one line a type: its connector, action and source
// drivers (server/integration/drivers/<type>.ts). `/connectors`, `/action_types` and `/source_types`
// offer what is listed here.
import type { ActionDriver, ConnectorDriver, SourceDriver } from '../driver.ts'
import { mqttAction, mqttConnector, mqttSource } from './mqtt.ts'

export interface DriverSet {
  connector: ConnectorDriver
  action?: ActionDriver
  source?: SourceDriver
}

/** By connector type. A test may add a target type of its own before the server starts using it. */
export const drivers = new Map<string, DriverSet>([
  ['mqtt', { connector: mqttConnector, action: mqttAction, source: mqttSource }],
])
