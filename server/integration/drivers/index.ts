// The data-integration types this server offers, one line a type: its connector, action and source
// drivers (server/integration/drivers/<type>.ts). `/connectors`, `/action_types` and `/source_types`
// offer what is listed here.
import type { ActionDriver, ConnectorDriver, SourceDriver } from '../driver.ts'
import { httpAction, httpConnector } from './http.ts'
import { influxdbAction, influxdbConnector } from './influxdb.ts'
import { kafkaConsumerConnector, kafkaConsumerSource, kafkaProducerAction, kafkaProducerConnector } from './kafka.ts'
import { mongodbAction, mongodbConnector } from './mongodb.ts'
import { mqttAction, mqttConnector, mqttSource } from './mqtt.ts'
import { mysqlAction, mysqlConnector } from './mysql.ts'
import { pgsqlAction, pgsqlConnector } from './pgsql.ts'
import { redisAction, redisConnector } from './redis.ts'

export interface DriverSet {
  connector: ConnectorDriver
  action?: ActionDriver
  source?: SourceDriver
}

/** By connector type. A test may add a target type of its own before the server starts using it. */
export const drivers = new Map<string, DriverSet>([
  ['http', { connector: httpConnector, action: httpAction }],
  ['mqtt', { connector: mqttConnector, action: mqttAction, source: mqttSource }],
  ['pgsql', { connector: pgsqlConnector, action: pgsqlAction }],
  ['mysql', { connector: mysqlConnector, action: mysqlAction }],
  ['redis', { connector: redisConnector, action: redisAction }],
  ['influxdb', { connector: influxdbConnector, action: influxdbAction }],
  ['kafka_producer', { connector: kafkaProducerConnector, action: kafkaProducerAction }],
  ['kafka_consumer', { connector: kafkaConsumerConnector, source: kafkaConsumerSource }],
  ['mongodb', { connector: mongodbConnector, action: mongodbAction }],
])
