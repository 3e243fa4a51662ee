// Flapping detection (EMQX `flapping_detect`): a client id that disconnects `max_count` times within
// `window_time` is banned for `ban_time`.
import * as v from 'valibot'
import { FlappingConfigSchema, type FlappingConfig } from '../../../contract/flapping.ts'
import type { Broker } from '../../broker/broker.ts'
import type { BannedFeature } from '../banned/feature.ts'
import { parseDuration } from '../../broker/units.ts'
import { HP } from '../../broker/hook-priorities.ts'
import { log } from '../../log/index.ts'

export { FlappingConfigSchema, type FlappingConfig }

export const defaultFlappingConfig: FlappingConfig = v.parse(FlappingConfigSchema, {})

const SERVER_REASONS = new Set(['kicked', 'shutdown'])

interface Counter {
  startedAt: number
  count: number
}

export class FlappingFeature {
  private settings: FlappingConfig = defaultFlappingConfig
  private readonly counters = new Map<string, Counter>()
  private readonly banned: BannedFeature
  private readonly unhook: () => void
  private readonly timer: NodeJS.Timeout

  constructor(broker: Broker, banned: BannedFeature) {
    this.banned = banned
    this.unhook = broker.hooks.add('client.disconnected', (info, reason) => {
      // The broker's own disconnects (an operator's kick, the server stopping) are not the client flapping.
      if (this.settings.enable && !SERVER_REASONS.has(reason)) this.detect(info.clientid, info.peerhost)
    }, HP.FLAPPING)
    // Forgets clients whose window has passed, so the table does not grow with every client id seen.
    this.timer = setInterval(() => this.forgetOld(Date.now()), 10_000)
    this.timer.unref()
  }

  get config(): FlappingConfig {
    return this.settings
  }

  configure(config: FlappingConfig): void {
    this.settings = config
    if (!config.enable) this.counters.clear()
  }

  stop(): void {
    clearInterval(this.timer)
    this.unhook()
  }

  private detect(clientid: string, peerhost: string): void {
    const now = Date.now()
    const windowMs = parseDuration(this.settings.window_time) ?? 60_000
    let counter = this.counters.get(clientid)
    if (!counter || now - counter.startedAt >= windowMs) {
      counter = { startedAt: now, count: 0 }
      this.counters.set(clientid, counter)
    }
    counter.count++
    if (counter.count < this.settings.max_count) return
    this.counters.delete(clientid)
    const banMs = parseDuration(this.settings.ban_time) ?? 300_000
    log.warning({ clientid, peer_host: peerhost, detect_cnt: counter.count, wind_time_in_ms: windowMs }, 'flapping_detected')
    this.banned.create({ as: 'clientid', who: clientid, by: 'flapping detector', reason: 'flapping is detected', at: now, until: now + banMs })
  }

  private forgetOld(now: number): void {
    const windowMs = parseDuration(this.settings.window_time) ?? 60_000
    for (const [clientid, counter] of this.counters) if (now - counter.startedAt >= windowMs) this.counters.delete(clientid)
  }
}
