// Alarms (EMQX `emqx_alarm` with its `sysmon.os` checks): conditions the broker measures itself
// are checked periodically; an alarm is activated when its condition holds and moves to the history
// (with its deactivation time) when the condition clears. Activated alarms and the history live in
// SQLite; alarms still activated when the server stopped go to the history at start, as in EMQX.
//
// - high_system_memory_usage: system memory in use (total minus available) above
//   `sysmon.os.sysmem_high_watermark`, every `mem_check_interval` (EMQX's message and details).
// - high_process_memory_usage: this server process's resident memory as a share of the machine's
//   above `procmem_high_watermark`, on the same interval. EMQX gets this alarm from OTP's memsup
//   (the largest Erlang process); its name, message and `pid`/`high_watermark` details are kept,
//   with the measured `usage` added.
// - high_cpu_usage: CPU busy percent of the whole machine since the last check above
//   `cpu_high_watermark`, cleared below `cpu_low_watermark`, every `cpu_check_interval`.
// - too_many_connections: the embedded broker's own alarm (EMQX community has no connection-count
//   alarm), live connections above a watermark given in the server's config; off by default.
import { freemem, totalmem } from 'node:os'
import { cpuTimes } from '../../metrics/vm-stats.ts'
import * as v from 'valibot'
import type { AlarmRecord, AlarmRepository } from './store.ts'
import type { Broker } from '../../broker/broker.ts'
import { durationText, parseDuration } from '../../broker/units.ts'
import { createMessage } from '../../broker/message.ts'
import { log } from '../../log/index.ts'

const PERCENT = /^(\d+(?:\.\d+)?)%$/

/** `"70%"` -> 70, or undefined. */
export function parsePercent(text: string): number | undefined {
  const m = PERCENT.exec(text.trim())
  if (!m) return undefined
  const value = Number(m[1])
  return value <= 100 ? value : undefined
}

const percentText = v.pipe(
  v.string(),
  v.check((text) => parsePercent(text) !== undefined, 'must be a percentage from 0% to 100%, such as 70%'),
)
const positiveDuration = v.pipe(
  durationText,
  v.check((text) => (parseDuration(text) ?? 0) > 0, 'must be longer than 0'),
)

/** EMQX's `sysmon.os`, every field honoured by the embedded broker. */
export const SysmonOsSchema = v.object({
  cpu_check_interval: v.optional(positiveDuration, '60s'),
  cpu_high_watermark: v.optional(percentText, '80%'),
  cpu_low_watermark: v.optional(percentText, '60%'),
  mem_check_interval: v.optional(v.union([v.literal('disabled'), positiveDuration]), '60s'),
  sysmem_high_watermark: v.optional(percentText, '70%'),
  procmem_high_watermark: v.optional(percentText, '5%'),
})
export type SysmonOs = v.InferOutput<typeof SysmonOsSchema>
export const defaultSysmonOs: SysmonOs = v.parse(SysmonOsSchema, {})

/**
 * EMQX's `alarm` settings: what happens when an alarm is activated or deactivated (`log` a warning,
 * `publish` it to `$SYS/brokers/<node>/alarms/activate|deactivate`), how many history entries are
 * kept and for how long.
 */
export const AlarmConfigSchema = v.object({
  actions: v.optional(v.array(v.picklist(['log', 'publish'], 'must be log or publish')), ['log', 'publish']),
  size_limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'must be at least 1'), v.maxValue(3000, 'must be at most 3000')), 1000),
  validity_period: v.optional(positiveDuration, '24h'),
})
export type AlarmConfig = v.InferOutput<typeof AlarmConfigSchema>
export const defaultAlarmConfig: AlarmConfig = v.parse(AlarmConfigSchema, {})

export interface AlarmOptions {
  /** Live connections above which `too_many_connections` is raised; undefined (the default) turns it off. */
  connectionHighWatermark?: number
  /** How often connections are checked (default 60 s, like EMQX's other checks). */
  connectionCheckMs?: number
}

/** System memory in use, percent with two decimals (EMQX reads total minus available). */
export function sysmemUsagePercent(): number {
  const total = totalmem()
  if (total <= 0) return 0
  return Math.round(((total - freemem()) / total) * 10000) / 100
}

/** This process's resident memory as a share of the machine's memory, percent with two decimals. */
export function procmemUsagePercent(): number {
  const total = totalmem()
  if (total <= 0) return 0
  return Math.round((process.memoryUsage.rss() / total) * 10000) / 100
}

export class AlarmMonitor {
  readonly repository: AlarmRepository
  private readonly broker: Broker
  private os: SysmonOs = defaultSysmonOs
  private alarmConfig: AlarmConfig = defaultAlarmConfig
  private readonly options: { connectionHighWatermark: number | undefined; connectionCheckMs: number }
  private readonly timers = new Map<'mem' | 'cpu' | 'connections', NodeJS.Timeout>()
  private lastCpu = cpuTimes()

  constructor(broker: Broker, repository: AlarmRepository, options: AlarmOptions = {}) {
    this.broker = broker
    this.repository = repository
    this.options = {
      connectionHighWatermark: options.connectionHighWatermark,
      connectionCheckMs: options.connectionCheckMs ?? 60_000,
    }
    repository.deactivateAll(Date.now())
    this.arm()
  }

  get sysmonOs(): SysmonOs {
    return this.os
  }

  /** New `sysmon.os` settings apply at once: the checks re-arm, a disabled memory check clears its alarm. */
  configure(os: SysmonOs): void {
    this.os = os
    this.arm()
  }

  get config(): AlarmConfig {
    return this.alarmConfig
  }

  /** New `alarm` settings; a smaller size limit or validity period trims the history at once. */
  configureAlarm(config: AlarmConfig): void {
    this.alarmConfig = config
    this.prune()
  }

  /** Activates an alarm (false when it is activated already: the first activation stands, as in EMQX). */
  activate(name: string, details: Record<string, unknown>, message: string): boolean {
    const activateAt = Date.now()
    const activated = this.repository.activate({ name, details, message, activateAt })
    if (activated) this.act('activate', { name, details, message, activateAt, deactivateAt: undefined })
    return activated
  }

  deactivate(name: string): boolean {
    const deactivateAt = Date.now()
    const alarm = this.repository.activated(name)
    if (!alarm || !this.repository.deactivate(name, deactivateAt)) return false
    this.act('deactivate', { ...alarm, deactivateAt })
    this.prune()
    return true
  }

  /** EMQX's alarm actions: a warning in the log, and/or a JSON message to `$SYS/brokers/<node>/alarms/<activate|deactivate>`. */
  private act(what: 'activate' | 'deactivate', alarm: AlarmRecord): void {
    if (this.alarmConfig.actions.includes('log')) {
      if (what === 'activate') log.warning({ name: alarm.name, message: alarm.message }, 'alarm_is_activated')
      else log.warning({ name: alarm.name }, 'alarm_is_deactivated')
    }
    if (this.alarmConfig.actions.includes('publish')) {
      // As EMQX's normalize/1: times in microseconds, `infinity` while activated.
      const payload = {
        name: alarm.name,
        details: alarm.details,
        message: alarm.message,
        activate_at: alarm.activateAt * 1000,
        deactivate_at: alarm.deactivateAt === undefined ? 'infinity' : alarm.deactivateAt * 1000,
        activated: alarm.deactivateAt === undefined,
      }
      this.broker.publish(
        createMessage({
          topic: `$SYS/brokers/${this.broker.node}/alarms/${what}`,
          payload: Buffer.from(JSON.stringify(payload)),
          qos: 0,
          retain: false,
          from: '',
          properties: { contentType: 'application/json' },
        }),
      )
      // As EMQX, the rule engine's alarm events go with the publish action.
      this.broker.hooks.run(what === 'activate' ? 'alarm.activated' : 'alarm.deactivated', {
        name: alarm.name,
        details: alarm.details,
        message: alarm.message,
        activatedAt: payload.activate_at,
        ...(alarm.deactivateAt === undefined ? {} : { deactivatedAt: alarm.deactivateAt * 1000 }),
      })
    }
  }

  private prune(): void {
    this.repository.prune(this.alarmConfig.size_limit, Date.now() - parseDuration(this.alarmConfig.validity_period)!)
  }

  checkMemory(): void {
    const watermark = parsePercent(this.os.sysmem_high_watermark)!
    const usage = sysmemUsagePercent()
    if (usage > watermark) this.activate('high_system_memory_usage', { usage, high_watermark: watermark }, `${usage.toFixed(2)}% mem usage`)
    else this.deactivate('high_system_memory_usage')
  }

  checkProcessMemory(): void {
    const watermark = parsePercent(this.os.procmem_high_watermark)!
    const usage = procmemUsagePercent()
    if (usage > watermark) {
      this.activate('high_process_memory_usage', { pid: String(process.pid), high_watermark: watermark, usage }, `Process memory usage is higher than ${watermark}%`)
    } else this.deactivate('high_process_memory_usage')
  }

  /** As EMQX: above the high watermark raises, below the low one clears, in between nothing changes. */
  checkCpu(): void {
    const now = cpuTimes()
    const total = now.total - this.lastCpu.total
    const busy = now.busy - this.lastCpu.busy
    this.lastCpu = now
    // No CPU time passed since the last check (EMQX skips a zero reading too).
    if (total <= 0) return
    const usage = Math.round((busy / total) * 10000) / 100
    const high = parsePercent(this.os.cpu_high_watermark)!
    const low = parsePercent(this.os.cpu_low_watermark)!
    const details = { usage, high_watermark: high, low_watermark: low }
    if (usage > high) this.activate('high_cpu_usage', details, `${usage.toFixed(2)}% cpu usage`)
    else if (usage < low) this.deactivate('high_cpu_usage')
  }

  checkConnections(): void {
    const watermark = this.options.connectionHighWatermark
    if (watermark === undefined) return
    const connections = this.broker.stats()['live_connections.count'] ?? 0
    if (connections > watermark) {
      this.activate('too_many_connections', { connections, high_watermark: watermark }, `${connections} connections, more than the high watermark ${watermark}`)
    } else this.deactivate('too_many_connections')
  }

  page(activated: boolean, page: number, limit: number): { data: AlarmRecord[]; count: number } {
    // History entries past the validity period go before they are shown (EMQX deletes them on a timer).
    if (!activated) this.prune()
    return { data: this.repository.page(activated, (page - 1) * limit, limit), count: this.repository.count(activated) }
  }

  clearHistory(): number {
    return this.repository.clearHistory()
  }

  stop(): void {
    for (const timer of this.timers.values()) clearInterval(timer)
    this.timers.clear()
  }

  private arm(): void {
    this.stop()
    const every = (name: 'mem' | 'cpu' | 'connections', ms: number, check: () => void) => {
      const timer = setInterval(() => {
        try {
          check()
        } catch (error) {
          log.error({ check: name, err: error }, 'alarm_check_failed')
        }
      }, ms)
      timer.unref()
      this.timers.set(name, timer)
    }
    if (this.os.mem_check_interval === 'disabled') {
      this.deactivate('high_system_memory_usage')
      this.deactivate('high_process_memory_usage')
    } else {
      every('mem', parseDuration(this.os.mem_check_interval)!, () => {
        this.checkMemory()
        this.checkProcessMemory()
      })
    }
    this.lastCpu = cpuTimes()
    every('cpu', parseDuration(this.os.cpu_check_interval)!, () => this.checkCpu())
    if (this.options.connectionHighWatermark !== undefined) every('connections', this.options.connectionCheckMs, () => this.checkConnections())
  }
}
