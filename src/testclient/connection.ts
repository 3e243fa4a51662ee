// One test connection: an mqtt.js client over WebSocket with the states of SPEC 4 (Connecting,
// Connected, Disconnecting, Disconnected, Reconnecting), its subscriptions, and its messages in a
// bounded store. No DOM: the browser and Node tests drive the same class.
import mqtt, { type IClientPublishOptions, type ISubscriptionGrant, type MqttClient } from 'mqtt'
import { CommandError, type Text } from '../../commands/commandError.ts'
import { brokerUrl, mqttOptions, type ConnectionSettings } from './connectionSettings.ts'
import { MessageStore } from './messages/store.ts'
import { reasonText } from './reasonCodes.ts'

export type ConnectionState = 'connecting' | 'connected' | 'disconnecting' | 'disconnected' | 'reconnecting'

export interface SubscriptionOptions {
  topic: string
  qos: 0 | 1 | 2
  /** MQTT 5: no local, retain as published, retain handling, subscription identifier. */
  nl?: boolean
  rap?: boolean
  rh?: 0 | 1 | 2
  subscriptionIdentifier?: number
}

export interface Subscription extends SubscriptionOptions {
  /** The QoS the broker granted. */
  granted: number
}

export interface PublishProperties {
  payloadFormatIndicator?: boolean
  messageExpiryInterval?: number
  contentType?: string
  responseTopic?: string
  correlationData?: Uint8Array
  userProperties?: Record<string, string | string[]>
  topicAlias?: number
}

export interface PublishOptions {
  topic: string
  payload: Uint8Array
  qos: 0 | 1 | 2
  retain: boolean
  properties?: PublishProperties
}

/** What views render; a new object after every change (useSyncExternalStore compares by identity). */
export interface ConnectionSnapshot {
  name: string
  settings: ConnectionSettings
  state: ConnectionState
  /** The broker's last CONNACK or DISCONNECT reason, or why the connection could not be made. */
  reason?: Text
  subscriptions: readonly Subscription[]
  connectedAt?: number
}

export type Connect = (url: string, options: ReturnType<typeof mqttOptions>) => MqttClient

const ERR = {
  notConnected: { key: 'testClient.err.notConnected' },
  cancelled: { key: 'testClient.err.cancelled' },
  disconnected: { key: 'testClient.err.disconnected' },
  timeout: { key: 'testClient.err.timeout' },
  busy: { key: 'testClient.err.busy' },
} as const

function errorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'number' ? code : undefined
}

/**
 * The first failure code (0x80 and above) in a SUBACK or MQTT 5 UNSUBACK: mqtt.js gives the codes
 * as the packet's `granted` list (on the error for a refused SUBSCRIBE), never as the error's code.
 */
function ackFailure(packet: unknown): number | undefined {
  const granted = (packet as { granted?: unknown } | null | undefined)?.granted
  if (!Array.isArray(granted)) return undefined
  const codes = granted.map((grant: unknown) => (typeof grant === 'number' ? grant : (grant as { qos?: unknown } | null)?.qos))
  return codes.find((code): code is number => typeof code === 'number' && code >= 0x80)
}

export class TestConnection {
  readonly store: MessageStore
  private client: MqttClient | undefined
  private current: ConnectionSnapshot
  private readonly listeners = new Set<() => void>()
  private pending: { resolve(): void; reject(error: Error): void } | undefined
  private readonly connectFn: Connect

  constructor(settings: ConnectionSettings, store: MessageStore, connectFn: Connect = mqtt.connect) {
    this.store = store
    this.connectFn = connectFn
    this.current = { name: settings.name, settings, state: 'disconnected', subscriptions: [] }
  }

  get name(): string {
    return this.current.name
  }

  get state(): ConnectionState {
    return this.current.state
  }

  snapshot(): ConnectionSnapshot {
    return this.current
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  /** New settings take effect at the next connect. */
  setSettings(settings: ConnectionSettings): void {
    this.set({ settings, name: settings.name })
  }

  /** Resolves at CONNACK success; rejects with the broker's reason, a time-out, or a cancel. */
  connect(): Promise<void> {
    if (this.current.state === 'connected') return Promise.resolve()
    if (this.current.state !== 'disconnected') return Promise.reject(new CommandError(ERR.busy))
    const { settings } = this.current
    let options: ReturnType<typeof mqttOptions>
    try {
      options = mqttOptions(settings)
    } catch (error) {
      return Promise.reject(new CommandError({ key: (error as Error).message }))
    }
    const url = brokerUrl(settings)
    const unreachable: Text = { key: 'testClient.err.unreachable', values: { url } }
    const started = Date.now()
    const client = this.connectFn(url, options)
    this.client = client
    this.set({ state: 'connecting', reason: undefined })
    const promise = new Promise<void>((resolve, reject) => {
      this.pending = { resolve, reject }
    })

    client.on('connect', (connack) => {
      if (this.client !== client) return
      // Without a session kept by the broker, it holds none of our old subscriptions.
      this.set({
        state: 'connected',
        reason: undefined,
        connectedAt: Date.now(),
        ...(connack.sessionPresent ? {} : { subscriptions: [] }),
      })
      this.settle()
    })
    client.on('reconnect', () => {
      if (this.client === client) this.set({ state: 'reconnecting' })
    })
    client.on('error', (error) => {
      if (this.client !== client) return
      const code = errorCode(error)
      const reason: Text =
        code !== undefined
          ? reasonText(code, settings.protocolVersion, 'connack')
          : error.message
            ? { key: 'testClient.err.transport', values: { message: error.message } }
            : unreachable // a browser says nothing about why a WebSocket failed
      this.set({ reason })
    })
    client.on('disconnect', (packet) => {
      if (this.client !== client) return
      if (packet.reasonCode !== undefined) this.set({ reason: reasonText(packet.reasonCode, 5, 'disconnect') })
    })
    client.on('message', (topic, payload, packet) => {
      this.store.push({
        direction: 'in',
        topic,
        qos: packet.qos,
        retain: packet.retain,
        payload,
        ...(packet.properties ? { properties: packet.properties as Record<string, unknown> } : {}),
        time: Date.now(),
      })
    })
    client.on('close', () => {
      if (this.client !== client) return
      // mqtt.js's own close listener ran first and decided whether to retry (never after a refused CONNACK).
      const willRetry = client.reconnecting && !client.disconnecting
      // A connect that never got its CONNACK fails now, even when mqtt.js goes on retrying. Closed
      // before the time-out with no word why: the socket never opened (browsers hide the cause).
      if (!this.current.reason && this.current.state === 'connecting')
        this.set({ reason: Date.now() - started < settings.connectTimeout * 1000 - 250 ? unreachable : ERR.timeout })
      this.settle(new CommandError(this.current.reason ?? ERR.disconnected))
      if (willRetry) this.set({ state: 'reconnecting' })
      else if (this.current.state !== 'disconnecting') this.finish()
    })
    return promise
  }

  /** Stops a connection attempt (Connecting or Reconnecting). */
  cancel(): void {
    const client = this.client
    if (!client) return
    this.settle(new CommandError(ERR.cancelled))
    this.finish()
    client.end(true)
  }

  async disconnect(): Promise<void> {
    const client = this.client
    if (!client || this.current.state === 'disconnected') return
    if (this.current.state !== 'connected') return this.cancel()
    this.set({ state: 'disconnecting' })
    await new Promise<void>((resolve) => client.end(false, { reasonCode: 0 }, () => resolve()))
    if (this.client === client) this.finish()
  }

  async subscribeTopic(options: SubscriptionOptions): Promise<Subscription> {
    const client = this.connected()
    const v5 = this.current.settings.protocolVersion === 5
    const granted = await new Promise<ISubscriptionGrant[]>((resolve, reject) => {
      client.subscribe(
        options.topic,
        {
          qos: options.qos,
          ...(v5
            ? {
                nl: options.nl ?? false,
                rap: options.rap ?? false,
                rh: options.rh ?? 0,
                ...(options.subscriptionIdentifier !== undefined ? { properties: { subscriptionIdentifier: options.subscriptionIdentifier } } : {}),
              }
            : {}),
        },
        (error, grants) => {
          const code = errorCode(error) ?? ackFailure((error as { packet?: unknown } | null)?.packet) ?? grants?.find((g) => g.qos >= 0x80)?.qos
          if (code !== undefined) reject(this.failure('testClient.err.subscribeFailed', code))
          else if (error) reject(new CommandError({ key: 'testClient.err.subscribeFailed', values: { reason: error.message } }))
          else resolve(grants ?? [])
        },
      )
    })
    const subscription: Subscription = { ...options, granted: granted[0]?.qos ?? options.qos }
    const others = this.current.subscriptions.filter((s) => s.topic !== options.topic)
    this.set({ subscriptions: [...others, subscription] })
    return subscription
  }

  async unsubscribeTopic(topic: string): Promise<void> {
    const client = this.connected()
    await new Promise<void>((resolve, reject) => {
      client.unsubscribe(topic, (error, packet) => {
        const code = errorCode(error) ?? ackFailure(packet) ?? (packet && 'reasonCode' in packet ? (packet.reasonCode as number | undefined) : undefined)
        if (code !== undefined && code >= 0x80) reject(this.failure('testClient.err.unsubscribeFailed', code))
        else if (error) reject(new CommandError({ key: 'testClient.err.unsubscribeFailed', values: { reason: error.message } }))
        else resolve()
      })
    })
    this.set({ subscriptions: this.current.subscriptions.filter((s) => s.topic !== topic) })
  }

  /** Resolves once sent (QoS 0) or acknowledged (QoS 1 and 2); the message then shows as published. */
  async publish(message: PublishOptions): Promise<void> {
    const client = this.connected()
    const options: IClientPublishOptions = { qos: message.qos, retain: message.retain }
    if (message.properties && this.current.settings.protocolVersion === 5) {
      const { correlationData, ...rest } = message.properties
      options.properties = { ...rest, ...(correlationData ? { correlationData: correlationData as Buffer } : {}) }
    }
    await new Promise<void>((resolve, reject) => {
      client.publish(message.topic, message.payload as Buffer, options, (error) => {
        if (!error) return resolve()
        const code = errorCode(error)
        reject(
          code !== undefined
            ? this.failure('testClient.err.publishFailed', code)
            : new CommandError({ key: 'testClient.err.publishFailed', values: { reason: error.message } }),
        )
      })
    })
    this.store.push({
      direction: 'out',
      topic: message.topic,
      qos: message.qos,
      retain: message.retain,
      payload: message.payload,
      ...(options.properties ? { properties: options.properties as Record<string, unknown> } : {}),
      time: Date.now(),
    })
  }

  /** Closes the socket at once and forgets the client (tab closed). */
  dispose(): void {
    const client = this.client
    this.client = undefined
    this.settle(new CommandError(ERR.cancelled))
    client?.end(true)
    this.listeners.clear()
  }

  private connected(): MqttClient {
    if (!this.client || this.current.state !== 'connected') throw new CommandError(ERR.notConnected)
    return this.client
  }

  private failure(key: string, code: number): CommandError {
    return new CommandError({ key }, reasonText(code, this.current.settings.protocolVersion, 'ack'))
  }

  private finish(): void {
    this.client = undefined
    this.set({ state: 'disconnected', connectedAt: undefined })
  }

  private settle(error?: Error): void {
    const pending = this.pending
    this.pending = undefined
    if (!pending) return
    if (error) pending.reject(error)
    else pending.resolve()
  }

  private set(patch: Partial<ConnectionSnapshot>): void {
    this.current = { ...this.current, ...patch }
    for (const listener of this.listeners) listener()
  }
}
