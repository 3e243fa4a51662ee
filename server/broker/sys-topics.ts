// `$SYS` topics as EMQX 5 publishes them (emqx_sys): the node's identity (retained) at start and
// with every stat and metric every `sys_msg_interval`, its uptime (ms) and RFC 3339 time every
// `sys_heartbeat_interval`, and client event messages (connected, disconnected, subscribed,
// unsubscribed) when `sys_event_messages` says so.
import type { Broker } from './broker.ts'
import type { ClientInfo, SubOptions } from './hooks.ts'
import { HP } from './hook-priorities.ts'
import { createMessage } from './message.ts'
import { toSysTopicTimers } from './settings.ts'

/** The EMQX release the embedded broker presents itself as (same as the REST API's). */
export const SYS_VERSION = '5.8.0'
export const SYS_DESCR = 'EMQX'
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * RFC 3339 local time with nanoseconds and the UTC offset, as EMQX's `$SYS/brokers/{node}/datetime`
 * (`calendar:system_time_to_rfc3339(erlang:system_time(), [{unit, nanosecond}])`).
 */
export function datetime(now = new Date()): string {
  const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0')
  const offset = -now.getTimezoneOffset()
  const sign = offset < 0 ? '-' : '+'
  return (
    `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}` +
    `.${pad(now.getMilliseconds(), 3)}000000${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`
  )
}

export class SysTopics {
  private readonly broker: Broker
  private msgTimer: NodeJS.Timeout | undefined
  private heartbeatTimer: NodeJS.Timeout | undefined
  private readonly unhook: Array<() => void> = []
  private stopped = false
  /** The intervals the timers run with, so an unrelated settings change leaves them alone. */
  private armedFor: string | undefined

  constructor(broker: Broker) {
    this.broker = broker
    const hooks = broker.hooks
    this.unhook.push(
      hooks.add('client.connected', (info) => this.clientConnected(info), HP.SYS_MSGS),
      hooks.add('client.disconnected', (info, reason) => this.clientDisconnected(info, reason), HP.SYS_MSGS),
      hooks.add('session.subscribed', (info, filter, options) => this.sessionEvent('subscribed', info, filter, options), HP.SYS_MSGS),
      hooks.add('session.unsubscribed', (info, filter) => this.sessionEvent('unsubscribed', info, filter), HP.SYS_MSGS),
    )
  }

  private get prefix(): string {
    return `$SYS/brokers/${this.broker.node}`
  }

  /** Publishes the retained identity topics and arms the timers from the current settings. */
  start(): void {
    this.publishIdentity()
    this.rearm()
  }

  /** `$SYS/brokers` (the running nodes, comma-separated), version and description, all retained. */
  private publishIdentity(): void {
    this.publish(`${this.prefix}/version`, SYS_VERSION, true)
    this.publish(`${this.prefix}/sysdescr`, SYS_DESCR, true)
    this.publish('$SYS/brokers', this.broker.node, true)
  }

  /** Settings changed: if an interval did, the timers start over with the new values; otherwise they keep running. */
  rearm(): void {
    const { msgIntervalMs, heartbeatIntervalMs } = toSysTopicTimers(this.broker.sysTopics)
    const armedFor = this.stopped ? undefined : `${msgIntervalMs}/${heartbeatIntervalMs}`
    if (armedFor !== undefined && armedFor === this.armedFor) return
    this.armedFor = armedFor
    clearInterval(this.msgTimer)
    clearInterval(this.heartbeatTimer)
    this.msgTimer = this.heartbeatTimer = undefined
    if (this.stopped) return
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
    this.publishIdentity()
    for (const [name, value] of Object.entries(this.broker.stats())) this.publish(`${this.prefix}/stats/${name.replaceAll('.', '/')}`, String(value))
    for (const [name, value] of Object.entries(this.broker.metrics.snapshot())) this.publish(`${this.prefix}/metrics/${name.replaceAll('.', '/')}`, String(value))
  }

  /** The fields every client event carries (EMQX `common_infos`). */
  private common(info: ClientInfo) {
    const session = this.broker.getSession(info.clientid)
    return {
      clientid: info.clientid,
      username: info.username ?? null,
      ipaddress: info.peerhost,
      sockport: this.broker.listenerPort(info.listener),
      protocol: 'mqtt',
      proto_name: info.protoVer === 3 ? 'MQIsdp' : 'MQTT',
      proto_ver: info.protoVer,
      connected_at: session?.connectedAt ?? Date.now(),
      ts: Date.now(),
    }
  }

  private clientConnected(info: ClientInfo): void {
    if (!this.broker.sysTopics.sys_event_messages.client_connected) return
    const session = this.broker.getSession(info.clientid)
    this.event(`clients/${info.clientid}/connected`, {
      ...this.common(info),
      keepalive: session?.keepalive ?? 0,
      clean_start: session?.cleanStart ?? true,
      // EMQX keeps the session expiry interval in milliseconds in its connection info.
      expiry_interval: (session?.expiryInterval ?? 0) * 1000,
    })
  }

  private clientDisconnected(info: ClientInfo, reason: string): void {
    if (!this.broker.sysTopics.sys_event_messages.client_disconnected) return
    this.event(`clients/${info.clientid}/disconnected`, { ...this.common(info), reason, disconnected_at: Date.now() })
  }

  private sessionEvent(kind: 'subscribed' | 'unsubscribed', info: ClientInfo, topic: string, options?: SubOptions): void {
    const enabled = this.broker.sysTopics.sys_event_messages[kind === 'subscribed' ? 'client_subscribed' : 'client_unsubscribed']
    if (!enabled) return
    this.event(`clients/${info.clientid}/${kind}`, {
      clientid: info.clientid,
      username: info.username ?? null,
      protocol: 'mqtt',
      topic,
      ...(options
        ? {
            subopts: {
              qos: options.qos,
              nl: options.nl ? 1 : 0,
              rap: options.rap ? 1 : 0,
              rh: options.rh,
              ...(options.subid !== undefined ? { subid: options.subid } : {}),
              ...(options.share !== undefined ? { share: options.share } : {}),
            },
          }
        : {}),
      ts: Date.now(),
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
