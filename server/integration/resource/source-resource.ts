// One source on this node: while its connector is connected it receives through the type's driver
// and hands each row on (the rules' `$sources/<type>:<name>`); when the connection goes it stops
// receiving, and subscribes again once the connector is connected again.
import type { DriverContext, SourceDriver } from '../driver.ts'
import type { ConnectorResource } from './connector-resource.ts'
import { BridgeCounters } from './metrics.ts'
import { errorText } from './timing.ts'
import { log } from '../../log/index.ts'

export class SourceResource {
  readonly driver: SourceDriver
  readonly metrics = new BridgeCounters(() => ({ queuing: 0, queuing_bytes: 0, inflight: 0 }))
  private readonly connector: ConnectorResource
  private readonly parameters: Record<string, unknown>
  private readonly deliver: (row: Record<string, unknown>) => void
  private readonly ctx: DriverContext
  private unsubscribe: Promise<(() => Promise<void>) | undefined> | undefined
  private readonly unwatch: () => void
  private stopped = false
  /** Why subscribing failed, while it has. */
  failure: string | undefined

  constructor(driver: SourceDriver, parameters: Record<string, unknown>, connector: ConnectorResource, deliver: (row: Record<string, unknown>) => void, ctx: DriverContext) {
    this.driver = driver
    this.parameters = parameters
    this.connector = connector
    this.deliver = deliver
    this.ctx = ctx
    this.unwatch = connector.onStatus((state) => (state === 'connected' ? this.subscribe() : void this.unsubscribeNow()))
    if (connector.status === 'connected') this.subscribe()
  }

  private subscribe(): void {
    const conn = this.connector.connection
    if (this.stopped || conn === undefined || this.unsubscribe) return
    const received = (row: Record<string, unknown>): void => {
      this.metrics.add('received')
      this.deliver(row)
    }
    this.unsubscribe = this.driver.subscribe(conn, this.parameters, received, this.ctx).then(
      (stop) => {
        this.failure = undefined
        return stop
      },
      (error: unknown) => {
        this.failure = errorText(error)
        log.warning({ id: this.ctx.id, reason: this.failure }, 'source_subscribe_failed')
        this.unsubscribe = undefined
        return undefined
      },
    )
  }

  private async unsubscribeNow(): Promise<void> {
    const pending = this.unsubscribe
    this.unsubscribe = undefined
    const stop = await pending
    await stop?.().catch(() => undefined)
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.unwatch()
    await this.unsubscribeNow()
  }
}
