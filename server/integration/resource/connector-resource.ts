// One connector on this node (emqx_resource_manager): opens its connection through the type's
// driver, checks it every health_check_interval, and when the connection fails or cannot be opened
// tries again on that interval until it is connected or stopped. Its status is what the API shows.
import type { ConnectorDriver, DriverContext, ResourceHealth } from '../driver.ts'
import { errorText, withTimeout } from './timing.ts'

export type ConnectorState = 'connected' | 'connecting' | 'disconnected' | 'stopped'

export interface ConnectorTiming {
  healthCheckMs: number
  startTimeoutMs: number
}

export class ConnectorResource {
  readonly driver: ConnectorDriver
  readonly ctx: DriverContext
  private config: Record<string, unknown>
  private timing: ConnectorTiming
  private conn: unknown
  private state: ConnectorState = 'stopped'
  private why: string | undefined
  private timer: NodeJS.Timeout | undefined
  /** Bumped by each start and stop: an answer of an older attempt is discarded. */
  private generation = 0
  private readonly listeners = new Set<(state: ConnectorState) => void>()

  constructor(driver: ConnectorDriver, config: Record<string, unknown>, timing: ConnectorTiming, ctx: DriverContext) {
    this.driver = driver
    this.config = config
    this.timing = timing
    this.ctx = ctx
  }

  get status(): ConnectorState {
    return this.state
  }

  get reason(): string | undefined {
    return this.why
  }

  /** The open connection, while connected. */
  get connection(): unknown {
    return this.state === 'connected' ? this.conn : undefined
  }

  /** Calls `listener` on each change of status; answers how to stop. */
  onStatus(listener: (state: ConnectorState) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** New config or timing: takes effect at the next start. */
  reconfigure(config: Record<string, unknown>, timing: ConnectorTiming): void {
    this.config = config
    this.timing = timing
  }

  /**
   * (Re)starts: closes what is open and connects again. Resolves once connected or after
   * start_timeout, whichever comes first; it keeps trying after that.
   */
  async start(): Promise<void> {
    await this.close()
    const generation = ++this.generation
    this.set('connecting', undefined)
    const attempt = this.attempt(generation)
    await Promise.race([attempt, new Promise<void>((resolve) => setTimeout(resolve, this.timing.startTimeoutMs).unref())])
  }

  async stop(): Promise<void> {
    this.generation++
    await this.close()
    this.set('stopped', undefined)
  }

  private async attempt(generation: number): Promise<void> {
    let conn: unknown
    try {
      conn = await this.driver.start(this.config, this.ctx)
    } catch (error) {
      if (generation !== this.generation) return
      this.set('disconnected', errorText(error))
      this.schedule(generation)
      return
    }
    if (generation !== this.generation) {
      await this.driver.stop(conn).catch(() => undefined)
      return
    }
    this.conn = conn
    await this.check(generation)
  }

  private async check(generation: number): Promise<void> {
    const health = await this.health()
    if (generation !== this.generation) return
    if (health.status === 'connected') {
      this.set('connected', undefined)
    } else {
      // A connection that stopped working is closed and opened again on the next tick.
      const conn = this.conn
      this.conn = undefined
      if (conn !== undefined) await this.driver.stop(conn).catch(() => undefined)
      if (generation !== this.generation) return
      this.set(health.status === 'connecting' ? 'connecting' : 'disconnected', health.reason)
    }
    this.schedule(generation)
  }

  private async health(): Promise<ResourceHealth> {
    try {
      // Bounded by the longer of the interval and start_timeout: a short interval under load must not read as down.
      return await withTimeout(this.driver.health(this.conn), Math.max(this.timing.healthCheckMs, this.timing.startTimeoutMs), 'health check timeout')
    } catch (error) {
      return { status: 'disconnected', reason: errorText(error) }
    }
  }

  private schedule(generation: number): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      if (generation !== this.generation) return
      if (this.conn === undefined) void this.attempt(generation)
      else void this.check(generation)
    }, this.timing.healthCheckMs)
    this.timer.unref()
  }

  private async close(): Promise<void> {
    clearTimeout(this.timer)
    this.timer = undefined
    const conn = this.conn
    this.conn = undefined
    if (conn !== undefined) await this.driver.stop(conn).catch(() => undefined)
  }

  private set(state: ConnectorState, reason: string | undefined): void {
    const changed = state !== this.state
    this.state = state
    this.why = reason
    if (changed) for (const listener of this.listeners) listener(state)
  }
}

/** `/connectors_probe`: opens a connection, checks it once and closes it; throws the reason it failed. */
export async function probeConnector(driver: ConnectorDriver, config: Record<string, unknown>, startTimeoutMs: number, ctx: DriverContext): Promise<void> {
  const conn = await withTimeout(driver.start(config, ctx), startTimeoutMs, 'timeout')
  try {
    const health = await withTimeout(driver.health(conn), startTimeoutMs, 'timeout')
    if (health.status !== 'connected') throw new Error(health.reason ?? health.status)
  } finally {
    await driver.stop(conn).catch(() => undefined)
  }
}
