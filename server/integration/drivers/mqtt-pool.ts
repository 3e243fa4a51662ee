// The MQTT connector's pool of mqtt.js clients to the remote broker (emqx_bridge_mqtt_connector over
// ecpool): one client per client id, each reconnecting every 2 s after it lost its connection
// (?AUTO_RECONNECT_INTERVAL_S) and subscribing again to what it subscribed to. Opening the pool waits
// for every client's CONNACK, and fails with the first refusal, as ecpool's start does.
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt'
import type { IPublishPacket } from 'mqtt-packet'
import { matchesFilter } from '../../broker/topic-trie.ts'
import { log } from '../../log/index.ts'
import type { ResourceHealth, ResourceStatus } from '../driver.ts'
import { poolClientIds, type PoolClientId } from './mqtt-clientid.ts'
import { clientTlsOptions, type ClientSsl } from './client-tls.ts'
import type { MqttConnectorSettings } from './mqtt-config.ts'
import { ingressRow, subscribesOn, type MqttIngress } from './mqtt-ingress.ts'
import { resendUnacknowledged } from './mqtt-retry.ts'

const AUTO_RECONNECT_MS = 2000

export interface PoolWorker {
  /** 1-based, as ecpool numbers its workers. */
  index: number
  clientid: string
  client: MqttClient
  /** Why the client last failed to connect or lost its connection. */
  lastError?: string
  /** QoS 1 and 2 publishes not yet acknowledged, and those waiting for room under max_inflight. */
  inflight: number
  waiting: Array<() => void>
  /** Stops resending what the remote broker has not acknowledged (retry_interval). */
  stopResending: () => void
}

/** Takes a received message's row, and the packet it came in. */
export type IngressDeliver = (row: Record<string, unknown>, packet: IPublishPacket) => void

interface IngressChannel {
  ingress: MqttIngress
  deliver: IngressDeliver
}

/** explain_error/1: EMQX's words for the two failures operators meet most. */
export function explainError(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code
  if (code === 'ECONNREFUSED') {
    return (
      'Connection refused. This error indicates that your connection attempt to the MQTT server was rejected. ' +
      "In simpler terms, the server you tried to connect to refused your request. There can be multiple reasons for this. For example, the MQTT server you're trying to connect to might be down or not " +
      'running at all or you might have provided the wrong address or port number for the server.'
    )
  }
  if (code === 'tcp_closed') {
    return (
      'Your MQTT connection attempt was unsuccessful. It might be at its maximum capacity for handling new connections. ' +
      'To diagnose the issue further, you can check the server logs for any specific messages related to the unavailability or connection limits.'
    )
  }
  if (error instanceof Error) return error.message || String(code ?? error.name)
  return String(error)
}

/** EMQX's client `ssl` object as mqtt.js' TLS options (the certificate files read here). */
function tlsOptions(ssl: ClientSsl, host: string): Partial<IClientOptions> {
  if (!ssl.enable) return { protocol: 'mqtt' }
  // mqtt.js hands these to tls.connect as they are; only its typing of cert and key is narrower than Node's.
  return { protocol: 'mqtts', ...(clientTlsOptions(ssl, host) as Partial<IClientOptions>) }
}

const protocolVersion = (settings: MqttConnectorSettings): 3 | 4 | 5 => (settings.protoVer === 'v3' ? 3 : settings.protoVer === 'v4' ? 4 : 5)

function clientOptions(settings: MqttConnectorSettings, id: PoolClientId): IClientOptions {
  const version = protocolVersion(settings)
  return {
    host: settings.host,
    port: settings.port,
    ...tlsOptions(settings.ssl, settings.host),
    protocolId: version === 3 ? 'MQIsdp' : 'MQTT',
    protocolVersion: version,
    clientId: id.clientid,
    username: id.username,
    password: id.password,
    clean: settings.cleanStart,
    keepalive: Math.ceil(settings.keepaliveMs / 1000),
    connectTimeout: settings.connectTimeoutMs,
    reconnectPeriod: AUTO_RECONNECT_MS,
    resubscribe: true,
  }
}

export class MqttPool {
  readonly workers: PoolWorker[]
  /** Whether static client ids are in use and none is this node's. */
  readonly unassigned: boolean
  private readonly channels = new Set<IngressChannel>()
  /** How many channels use each remote filter, per worker: one SUBSCRIBE however many sources share it. */
  private readonly subscriptionCounts = new Map<PoolWorker, Map<string, number>>()
  private next = 0

  readonly id: string
  readonly settings: MqttConnectorSettings

  private constructor(id: string, settings: MqttConnectorSettings, ids: PoolClientId[]) {
    this.id = id
    this.settings = settings
    this.unassigned = ids.length === 0
    this.workers = ids.map((clientId, i) => {
      const client = mqtt.connect({ ...clientOptions(settings, clientId), manualConnect: true })
      // bridge_mode (MQTT 3.1 / 3.1.1 only): the protocol level carries the bridge bit, 0x83 / 0x84.
      // mqtt.js has no option for it, but mqtt-packet writes it for a CONNECT marked `bridgeMode`,
      // and mqtt.js hands every packet to 'packetsend' listeners just before writing it.
      if (settings.bridgeMode && settings.protoVer !== 'v5') {
        client.on('packetsend', (packet) => {
          if (packet.cmd === 'connect') (packet as { bridgeMode?: boolean }).bridgeMode = true
        })
      }
      const stopResending = resendUnacknowledged(client, settings.retryIntervalMs, protocolVersion(settings))
      const worker: PoolWorker = { index: i + 1, clientid: clientId.clientid, client, inflight: 0, waiting: [], stopResending }
      client.on('error', (error) => {
        worker.lastError = explainError(error)
      })
      client.on('close', () => {
        worker.lastError ??= 'disconnected'
      })
      client.on('connect', () => {
        worker.lastError = undefined
      })
      client.on('message', (_topic, _payload, packet) => this.dispatch(packet))
      client.connect()
      return worker
    })
  }

  /** Opens the pool: every client connected, or the first failure thrown (its clients ended). */
  static async open(id: string, node: string, settings: MqttConnectorSettings): Promise<MqttPool> {
    const name = id.slice(id.indexOf(':') + 1)
    const ids = poolClientIds({ name, node, clientidPrefix: settings.clientidPrefix, poolSize: settings.poolSize, staticClientids: settings.staticClientids, username: settings.username, password: settings.password })
    const pool = new MqttPool(id, settings, ids)
    try {
      await Promise.all(pool.workers.map((worker) => firstConnack(worker.client, settings.connectTimeoutMs)))
    } catch (error) {
      await pool.close()
      throw new Error(explainError(error))
    }
    return pool
  }

  /** on_get_status/2: the worst of the clients' states; the reason of a client that is not connected. */
  health(): ResourceHealth {
    if (this.unassigned) return { status: 'disconnected', reason: 'Connector has no assigned static clientids' }
    let worst: ResourceStatus = 'connected'
    let reason: string | undefined
    for (const worker of this.workers) {
      if (worker.client.connected) continue
      worst = 'disconnected'
      reason ??= worker.lastError ?? 'disconnected'
    }
    return reason === undefined ? { status: worst } : { status: worst, reason }
  }

  /** A connected client for the next publish, round robin; undefined while none is connected. */
  pick(): PoolWorker | undefined {
    for (let tried = 0; tried < this.workers.length; tried++) {
      const worker = this.workers[this.next++ % this.workers.length]
      if (worker.client.connected) return worker
    }
    return undefined
  }

  /** Waits until the worker has room under max_inflight (0: no limit), then counts one more. */
  async acquire(worker: PoolWorker, signal: AbortSignal): Promise<void> {
    const max = this.settings.maxInflight
    while (max > 0 && worker.inflight >= max) {
      signal.throwIfAborted()
      await new Promise<void>((resolve) => {
        const wake = () => (signal.removeEventListener('abort', wake), resolve())
        worker.waiting.push(wake)
        signal.addEventListener('abort', wake, { once: true })
      })
    }
    worker.inflight++
  }

  release(worker: PoolWorker): void {
    worker.inflight--
    worker.waiting.shift()?.()
  }

  /** subscribe_channel/2: the source's filter on every client (shared) or the first one. */
  async subscribe(ingress: MqttIngress, deliver: IngressDeliver): Promise<() => Promise<void>> {
    const channel: IngressChannel = { ingress, deliver }
    this.channels.add(channel)
    if (!ingress.shared && this.workers.length > 1) {
      log.warning(
        {
          connector: this.id,
          reason: 'Remote topic filter is not a shared subscription, only a single connection will be used from the connection pool',
          config_pool_size: this.workers.length,
        },
        'mqtt_pool_size_ignored',
      )
    }
    const subscribed: PoolWorker[] = []
    try {
      for (const worker of this.workers.filter((w) => subscribesOn(ingress, w.index))) {
        await this.subscribeOn(worker, ingress)
        subscribed.push(worker)
      }
    } catch (error) {
      this.channels.delete(channel)
      for (const worker of subscribed) await this.unsubscribeOn(worker, ingress.topic)
      throw error
    }
    return async () => {
      if (!this.channels.delete(channel)) return
      for (const worker of subscribed) await this.unsubscribeOn(worker, ingress.topic)
    }
  }

  private async subscribeOn(worker: PoolWorker, ingress: MqttIngress): Promise<void> {
    const counts = this.subscriptionCounts.get(worker) ?? new Map<string, number>()
    this.subscriptionCounts.set(worker, counts)
    const count = counts.get(ingress.topic) ?? 0
    counts.set(ingress.topic, count + 1)
    if (count > 0) return
    const request = worker.client.subscribeAsync(ingress.topic, { qos: ingress.qos, nl: ingress.noLocal })
    // A client that is reconnecting subscribes once it is back (mqtt.js queues the request).
    if (!worker.client.connected) return void request.catch(() => undefined)
    try {
      await request
    } catch (error) {
      counts.set(ingress.topic, (counts.get(ingress.topic) ?? 1) - 1)
      throw new Error(`subscribing to '${ingress.topic}' failed: ${explainError(error)}`)
    }
  }

  private async unsubscribeOn(worker: PoolWorker, topic: string): Promise<void> {
    const counts = this.subscriptionCounts.get(worker)
    const count = counts?.get(topic) ?? 0
    if (count > 1) return void counts!.set(topic, count - 1)
    counts?.delete(topic)
    if (!worker.client.connected) {
      // Forgotten, so a reconnect does not subscribe again.
      void worker.client.unsubscribeAsync(topic).catch(() => undefined)
      return
    }
    await worker.client.unsubscribeAsync(topic).catch((error: unknown) => {
      log.warning({ channel_id: this.id, reason: explainError(error) }, 'unsubscribe_mqtt_topic_failed')
    })
  }

  /** handle_publish/3: every source whose filter matches the topic gets the message's row. */
  private dispatch(packet: IPublishPacket): void {
    for (const channel of this.channels) {
      if (matchesFilter(channel.ingress.filter, packet.topic)) channel.deliver(ingressRow(packet, this.settings.server), packet)
    }
  }

  async close(): Promise<void> {
    this.channels.clear()
    await Promise.all(
      this.workers.map(async (worker) => {
        for (const wake of worker.waiting.splice(0)) wake()
        worker.stopResending()
        const graceful = worker.client.endAsync(false)
        const timer = new Promise((resolve) => setTimeout(resolve, 1000).unref())
        await Promise.race([graceful, timer])
        if (!worker.client.disconnected) await worker.client.endAsync(true)
      }),
    )
  }
}

/** The client's first CONNACK; its error, its closing or `timeoutMs` passing first fails. */
function firstConnack(client: MqttClient, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error('connect_timeout')), timeoutMs)
    const onConnect = () => done()
    const onError = (error: Error) => done(error)
    const onClose = () => done(Object.assign(new Error('tcp_closed'), { code: 'tcp_closed' }))
    function done(error?: Error) {
      clearTimeout(timer)
      client.off('connect', onConnect).off('error', onError).off('close', onClose)
      if (error) reject(error)
      else resolve()
    }
    client.on('connect', onConnect).on('error', onError).on('close', onClose)
  })
}
