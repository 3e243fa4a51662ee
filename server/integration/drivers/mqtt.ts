// The `mqtt` data-integration type (EMQX 5.8.9 emqx_bridge_mqtt): a connector holding a pool of MQTT
// clients to another broker, an action publishing the rows a rule selects to it (egress), and a
// source bringing its messages in (ingress, `$sources/mqtt:<name>` / `$bridges/mqtt:<name>`).
import type { IClientPublishOptions } from 'mqtt'
import type { IPublishPacket } from 'mqtt-packet'
import type { Broker } from '../../broker/broker.ts'
import { createMessage } from '../../broker/message.ts'
import { log } from '../../log/index.ts'
import { RecoverableError, UnrecoverableError, type ActionDriver, type ConnectorDriver, type DriverContext, type RenderTrace, type SourceDriver } from '../driver.ts'
import type { TraceFields } from '../../trace/event.ts'
import { mqttConnectorSettings } from './mqtt-config.ts'
import { packetProperties, prepareEgress, renderEgress, type MqttEgress } from './mqtt-egress.ts'
import { prepareIngress, type MqttIngress } from './mqtt-ingress.ts'
import { renderMsgVars, type MsgVars } from './mqtt-msg.ts'
import { MqttPool, type PoolWorker } from './mqtt-pool.ts'

export { MQTT_CONNECTOR_DEFAULTS, sharedStaticClientidsProblem } from './mqtt-config.ts'
export { MQTT_ACTION_PARAMETER_DEFAULTS } from './mqtt-egress.ts'
export { MQTT_SOURCE_PARAMETER_DEFAULTS } from './mqtt-ingress.ts'

/** `check` (beside the interface, as the HTTP connector's): the config's 400 at create, update and probe, before anything connects. */
export const mqttConnector: ConnectorDriver<MqttPool> & { check(config: Record<string, unknown>): void } = {
  type: 'mqtt',
  check: (config) => void mqttConnectorSettings(config),
  start: async (config, ctx) => MqttPool.open(ctx.id, ctx.node, mqttConnectorSettings(config)),
  health: async (pool) => pool.health(),
  stop: (pool) => pool.close(),
}

/** PUBACK / PUBREC reason codes (MQTT 5) worth another try: the packet id was still in use after a restart. */
const RC_PACKET_IDENTIFIER_IN_USE = 0x91

/** classify_reply / classify_error: a refusal by reason code fails the row, a lost connection retries it. */
function classified(error: unknown): Error {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  if (typeof code === 'number' && code !== RC_PACKET_IDENTIFIER_IN_USE) return new UnrecoverableError(message)
  return new RecoverableError(message)
}

async function publish(pool: MqttPool, worker: PoolWorker, egress: MqttEgress, row: Record<string, unknown>, signal: AbortSignal, trace: RenderTrace | undefined): Promise<void> {
  const message = renderEgress(egress, row)
  trace?.rendered({ qos: message.qos, retain: message.retain, topic: message.topic, props: message.props as TraceFields, payload: message.payload })
  const options: IClientPublishOptions = { qos: message.qos, retain: message.retain }
  if (pool.settings.protoVer === 'v5') {
    const properties = packetProperties(message.props)
    if (properties) options.properties = properties
  }
  // QoS 0 has nothing to wait for but the write; QoS 1 and 2 take a place under max_inflight until acknowledged.
  const counted = message.qos > 0
  if (counted) await pool.acquire(worker, signal)
  try {
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(new RecoverableError('timeout'))
      signal.addEventListener('abort', onAbort, { once: true })
      worker.client.publish(message.topic, message.payload, options, (error) => {
        signal.removeEventListener('abort', onAbort)
        if (error) reject(classified(error))
        else resolve()
      })
    })
  } finally {
    if (counted) pool.release(worker)
  }
}

export const mqttAction: ActionDriver<MqttPool, MqttEgress> = {
  type: 'mqtt',
  connectorType: 'mqtt',
  prepare: (parameters) => prepareEgress(parameters),
  async send(pool, egress, batch, { timeoutMs, signal, trace }) {
    if (pool.unassigned) throw new UnrecoverableError('This node has no assigned static clientid.')
    const timeout = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
    for (const row of batch) {
      const worker = pool.pick()
      if (!worker) throw new RecoverableError('disconnected')
      await publish(pool, worker, egress, row, timeout, trace)
    }
  },
  health: async (pool) => (pool.unassigned ? { status: 'disconnected', reason: 'No clientids assigned to this node' } : { status: 'connected' }),
}

/**
 * maybe_publish_local/3: the row rendered by the source's `local` fields, published on this broker
 * with the remote message's properties, from `bridge` as EMQX's emqx_message:make(bridge, ...).
 */
function publishLocally(broker: Broker, local: MsgVars, row: Record<string, unknown>, packet: IPublishPacket): void {
  try {
    const message = renderMsgVars(local, row)
    broker.publish(createMessage({ ...message, from: 'bridge', properties: packet.properties }))
  } catch (error) {
    log.warning({ topic: packet.topic, reason: error instanceof Error ? error.message : String(error) }, 'mqtt_ingress_publish_local_failed')
  }
}

/** The MQTT source; `prepare` checks its parameters when it is created (the SourceDriver interface has no place for it yet). */
export const mqttSource: SourceDriver<MqttPool> & { prepare(parameters: Record<string, unknown>, ctx?: DriverContext): MqttIngress } = {
  type: 'mqtt',
  connectorType: 'mqtt',
  prepare: (parameters) => prepareIngress(parameters),
  subscribe(pool, parameters, deliver, ctx) {
    const ingress = prepareIngress(parameters)
    const local = ingress.local
    if (!local) return pool.subscribe(ingress, (row) => deliver(row))
    return pool.subscribe(ingress, (row, packet) => {
      deliver(row)
      publishLocally(ctx.broker, local, row, packet)
    })
  },
}
