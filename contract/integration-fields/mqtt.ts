// MQTT: the connector to another broker, the egress action and the ingress source
// (emqx_bridge_mqtt_connector_schema, emqx_bridge_mqtt_pubsub_schema 5.8.9).
import { DESCRIPTION, LOCAL_TOPIC, TLS } from './common.ts'
import type { TypeCatalogue } from './field.ts'

export const mqtt: TypeCatalogue = {
  connector: [
    DESCRIPTION,
    { path: 'server', kind: 'string', required: true, help: 'integrationFields.help.mqttServer' },
    { path: 'proto_ver', kind: 'enum', options: ['v3', 'v4', 'v5'] },
    { path: 'username', kind: 'string' },
    { path: 'password', kind: 'secret' },
    { path: 'clientid_prefix', kind: 'string', advanced: true },
    { path: 'clean_start', kind: 'boolean', advanced: true },
    { path: 'bridge_mode', kind: 'boolean', advanced: true, help: 'integrationFields.help.bridgeMode' },
    { path: 'keepalive', kind: 'duration', advanced: true },
    { path: 'connect_timeout', kind: 'duration', advanced: true },
    { path: 'retry_interval', kind: 'duration', advanced: true },
    { path: 'max_inflight', kind: 'number', min: 0, advanced: true },
    { path: 'pool_size', kind: 'number', min: 1, advanced: true, help: 'integrationFields.help.mqttPool' },
    { path: 'static_clientids', kind: 'json', advanced: true },
    TLS,
  ],
  action: [
    DESCRIPTION,
    { path: 'parameters.topic', kind: 'template', required: true, label: 'integrationFields.field.remoteTopic' },
    { path: 'parameters.qos', kind: 'enum', options: [0, 1, 2, '${qos}'] },
    { path: 'parameters.retain', kind: 'enum', options: [false, true, '${flags.retain}'] },
    { path: 'parameters.payload', kind: 'template', multiline: true, help: 'integrationFields.help.mqttPayload' },
    LOCAL_TOPIC,
  ],
  source: [
    DESCRIPTION,
    { path: 'parameters.topic', kind: 'string', required: true, label: 'integrationFields.field.remoteTopic', help: 'integrationFields.help.sourceTopic' },
    { path: 'parameters.qos', kind: 'enum', options: [0, 1, 2] },
    { path: 'parameters.no_local', kind: 'boolean', advanced: true },
  ],
}
