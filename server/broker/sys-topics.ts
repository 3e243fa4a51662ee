// `$SYS` topics as EMQX publishes them: the node's identity (retained), its uptime and time every
// `sys_heartbeat_interval`, every stat and metric every `sys_msg_interval`, and client event
// messages (connected, disconnected, subscribed, unsubscribed) when `sys_event_messages` says so.
import type { Broker } from './broker.ts'
import type { ClientInfo, SubOptions } from './hooks.ts'
import { createMessage } from './message.ts'
import { toSysTopicTimers } from './settings.ts'

/** The EMQX release the embedded broker presents itself as (same as the REST API's). */
export const SYS_VERSION = '5.8.0'
export const SYS_DESCR = 'EMQX'
const MAX_TIMER_MS = 2 ** 31 - 1

/** `2026-11-22 01:02:03`, as EMQX's `$SYS/brokers/{node}/datetime`. */
function datetime(now = new Date()): string {
  return now.toISOString().slice(0, 19).replace('T', ' ')
}

export class SysTopics {
  private readonly broker: Broker
  private msgTimer: NodeJS.Timeout | undefined
  private heartbeatTimer: NodeJS.Timeout | undefined
  private readonly unhook: Array<() => void> = []
  private stopped = false

  constructor(broker: Broker) {
    this.broker = broker
    const hooks = broker.hooks
    this.unhook.push(
      hooks.add('client.connected', (info) => this.clientConnected(info)),
      hooks.add('client.disconnected', (info, reason) => this.clientDisconnected(info, reason)),
      hooks.add('session.subscribed', (info, filter, options) => this.sessionEvent('subscribed', info, filter, options)),
      hooks.add('session.unsubscribed', (info, filter) => this.sessionEvent('unsubscribed', info, filter)),
    )
  }

  private get prefix(): string {
    return `$SYS/brokers/${this.broker.node}`
  }

  /** Publishes the retained identity topics and arms the timers from the current settings. */
  start(): void {
    this.publish('$SYS/brokers', this.broker.node, true)
    this.publish(`${this.prefix}/version`, SYS_VERSION, true)
    this.publish(`${this.prefix}/sysdescr`, SYS_DESCR, true)
    this.rearm()
  }

  /** The settings changed: the intervals start over with their new values. */
  rearm(): void {
    clearInterval(this.msgTimer)
    clearInterval(this.heartbeatTimer)
    this.msgTimer = this.heartbeatTimer = undefined
    if (this.stopped) return
    const { msgIntervalMs, heartbeatIntervalMs } = toSysTopicTimers(this.broker.sysTopics)
    if (Number.isFinite(msgIntervalMs) && msgIntervalMs > 0) {
      this.msgTimer = setInterval(() => this.publishStatsAndMetrics(), Math.max(100, Math.min(msgIntervalMs, MAX_TIMER_MS)))
      this.msgTimer.unref()
    }
    if (Number.isFinite(heartbeatIntervalMs) && heartbeatIntervalMs > 0) {
      this.heartbeatTimer = setInterval(() => this.heartbeat(), Math.max(100, Math.min(heartbeatIntervalMs, MAX_TIMER_MS)))
      this.heartbeatTimer.unref()
    }
  }

  stop(): void {
    this.stopped = true
    this.rearm()
    for (const unhook of this.unhook) unhook()
  }

  heartbeat(): void {
    this.publish(`${this.prefix}/uptime`, String(Date.now() - this.broker.startedAt))
    this.publish(`${this.prefix}/datetime`, datetime())
  }

  publishStatsAndMetrics(): void {
    for (const [name, value] of Object.entries(this.broker.stats())) this.publish(`${this.prefix}/stats/${name.replaceAll('.', '/')}`, String(value))
    for (const [name, value] of Object.entries(this.broker.metrics.snapshot())) this.publish(`${this.prefix}/metrics/${name.replaceAll('.', '/')}`, String(value))
  }

  private clientConnected(info: ClientInfo): void {
    if (!this.broker.sysTopics.sys_event_messages.client_connected) return
    const session = this.broker.getSession(info.clientid)
    const now = Date.now()
    this.event(`clients/${info.clientid}/connected`, {
      username: info.username ?? null,
      ts: now,
      sockport: 0,
      proto_ver: info.protoVer,
      proto_name: info.protoVer === 3 ? 'MQIsdp' : 'MQTT',
      keepalive: session?.keepalive ?? 0,
      ipaddress: info.peerhost,
      expiry_interval: (session?.expiryInterval ?? 0) * 1000,
      connected_at: session?.connectedAt ?? now,
      connack: 0,
      clientid: info.clientid,
      clean_start: session?.cleanStart ?? true,
    })
  }

  private clientDisconnected(info: ClientInfo, reason: string): void {
    if (!this.broker.sysTopics.sys_event_messages.client_disconnected) return
    const now = Date.now()
    this.event(`clients/${info.clientid}/disconnected`, {
      username: info.username ?? null,
      ts: now,
      sockport: 0,
      reason,
      proto_ver: info.protoVer,
      proto_name: info.protoVer === 3 ? 'MQIsdp' : 'MQTT',
      ipaddress: info.peerhost,
      disconnected_at: now,
      clientid: info.clientid,
    })
  }

  private sessionEvent(kind: 'subscribed' | 'unsubscribed', info: ClientInfo, topic: string, options?: SubOptions): void {
    const enabled = this.broker.sysTopics.sys_event_messages[kind === 'subscribed' ? 'client_subscribed' : 'client_unsubscribed']
    if (!enabled) return
    this.event(`session/${info.clientid}/${kind}`, {
      username: info.username ?? null,
      ts: Date.now(),
      clientid: info.clientid,
      topic,
      ...(options ? { subopts: { qos: options.qos, nl: options.nl ? 1 : 0, rap: options.rap ? 1 : 0, rh: options.rh } } : {}),
    })
  }

  private event(suffix: string, body: Record<string, unknown>): void {
    this.publish(`${this.prefix}/${suffix}`, JSON.stringify(body))
  }

  private publish(topic: string, payload: string, retain = false): void {
    if (this.stopped) return
    this.broker.publish(createMessage({ topic, payload: Buffer.from(payload), qos: 0, retain, from: '' }))
  }
}
