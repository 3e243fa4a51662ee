// Alarms (EMQX `emqx_alarm` with its `sysmon` checks): conditions the broker measures itself are
// checked every `checkMs`; an alarm is activated when its condition holds and moves to the history
// (with its deactivation time) when the condition clears. Activated alarms and the history live in
// SQLite; alarms still activated when the server stopped go to the history at start, as in EMQX.
import { freemem, totalmem } from 'node:os'
import type { AlarmRecord, AlarmRepository } from '../store/alarms.ts'
import type { Broker } from './broker.ts'

export interface AlarmSettings {
  /** How often the conditions are checked (EMQX `sysmon.os.mem_check_interval`, 60 s). */
  checkMs: number
  /** Percent of the system memory in use above which `high_system_memory_usage` is raised (EMQX `sysmon.os.sysmem_high_watermark`, 70%); undefined turns the check off. */
  sysmemHighWatermark: number | undefined
  /**
   * Live connections above which `too_many_connections` is raised; undefined (the default) turns
   * the check off. The embedded broker's own alarm: EMQX (community) has no connection-count alarm.
   */
  connectionHighWatermark: number | undefined
  /** History entries kept (EMQX `alarm.size_limit`, 1000). */
  sizeLimit: number
  /** How long history entries are kept (EMQX `alarm.validity_period`, 24 h). */
  validityMs: number
}

export const defaultAlarmSettings: AlarmSettings = {
  checkMs: 60_000,
  sysmemHighWatermark: 70,
  connectionHighWatermark: undefined,
  sizeLimit: 1000,
  validityMs: 24 * 60 * 60 * 1000,
}

/** System memory in use, percent with two decimals (EMQX reads total minus available). */
export function sysmemUsagePercent(): number {
  const total = totalmem()
  if (total <= 0) return 0
  return Math.round(((total - freemem()) / total) * 10000) / 100
}

export class AlarmMonitor {
  readonly repository: AlarmRepository
  private readonly broker: Broker
  private settings: AlarmSettings
  private timer: NodeJS.Timeout | undefined
  /** Measures system memory use in percent; replaceable so a check can be driven in tests of this module. */
  private readonly sysmem: () => number

  constructor(broker: Broker, repository: AlarmRepository, settings: Partial<AlarmSettings> = {}, sysmem: () => number = sysmemUsagePercent) {
    this.broker = broker
    this.repository = repository
    this.settings = { ...defaultAlarmSettings, ...settings }
    this.sysmem = sysmem
    repository.deactivateAll(Date.now())
    this.arm()
  }

  get config(): AlarmSettings {
    return this.settings
  }

  configure(settings: Partial<AlarmSettings>): void {
    this.settings = { ...this.settings, ...settings }
    this.arm()
  }

  /** Activates an alarm (false when it is activated already: the first activation stands, as in EMQX). */
  activate(name: string, details: Record<string, unknown>, message: string): boolean {
    const activated = this.repository.activate({ name, details, message, activateAt: Date.now() })
    if (activated) console.warn(`alarm activated: ${name}: ${message}`)
    return activated
  }

  deactivate(name: string): boolean {
    const deactivated = this.repository.deactivate(name, Date.now())
    if (deactivated) console.warn(`alarm deactivated: ${name}`)
    return deactivated
  }

  /** One round of checks. */
  check(): void {
    const { sysmemHighWatermark, connectionHighWatermark } = this.settings
    if (sysmemHighWatermark === undefined) this.deactivate('high_system_memory_usage')
    else {
      const usage = this.sysmem()
      if (usage > sysmemHighWatermark) {
        this.activate('high_system_memory_usage', { usage, high_watermark: sysmemHighWatermark }, `${usage.toFixed(2)}% mem usage`)
      } else this.deactivate('high_system_memory_usage')
    }
    if (connectionHighWatermark === undefined) this.deactivate('too_many_connections')
    else {
      const connections = this.broker.stats()['live_connections.count'] ?? 0
      if (connections > connectionHighWatermark) {
        this.activate(
          'too_many_connections',
          { connections, high_watermark: connectionHighWatermark },
          `${connections} connections, more than the high watermark ${connectionHighWatermark}`,
        )
      } else this.deactivate('too_many_connections')
    }
    this.repository.prune(this.settings.sizeLimit, Date.now() - this.settings.validityMs)
  }

  page(activated: boolean, page: number, limit: number): { data: AlarmRecord[]; count: number } {
    return { data: this.repository.page(activated, (page - 1) * limit, limit), count: this.repository.count(activated) }
  }

  clearHistory(): number {
    return this.repository.clearHistory()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  private arm(): void {
    clearInterval(this.timer)
    this.timer = setInterval(() => {
      try {
        this.check()
      } catch (error) {
        console.error('alarm check failed:', error)
      }
    }, this.settings.checkMs)
    this.timer.unref()
  }
}
