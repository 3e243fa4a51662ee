// A data-integration type for tests, `fixture`: its targets live in this process (up or down, what
// they received), so the REST areas and the rule engine plug can be tested before a network driver
// is merged and without a network server. It is a target for the server, not a mock of it.
import { RecoverableError, type ActionDriver, type ConnectorDriver, type SourceDriver } from '../../server/integration/driver.ts'
import { drivers } from '../../server/integration/drivers/index.ts'

export class FixtureTarget {
  up = true
  rows: Array<Record<string, unknown>> = []
  /** The configs connections were opened with (secrets as the driver got them). */
  opened: Array<Record<string, unknown>> = []
  /** Per send, whether it was given a trace to report its rendering to (only while a trace may want it). */
  traced: boolean[] = []
  private readonly subscribers = new Set<(row: Record<string, unknown>) => void>()

  /** A row arriving at a source subscribed to this target. */
  emit(row: Record<string, unknown>): void {
    for (const deliver of this.subscribers) deliver(row)
  }

  subscribe(deliver: (row: Record<string, unknown>) => void): () => void {
    this.subscribers.add(deliver)
    return () => this.subscribers.delete(deliver)
  }

  get subscribed(): number {
    return this.subscribers.size
  }
}

export const fixtureTargets = new Map<string, FixtureTarget>()

export function fixtureTarget(name: string): FixtureTarget {
  let target = fixtureTargets.get(name)
  if (!target) fixtureTargets.set(name, (target = new FixtureTarget()))
  return target
}

const connector: ConnectorDriver<FixtureTarget> = {
  type: 'fixture',
  async start(config) {
    const target = fixtureTarget(String(config.target))
    if (!target.up) throw new Error(`connection refused: ${String(config.target)}`)
    target.opened.push(config)
    return target
  },
  async health(target) {
    return target.up ? { status: 'connected' } : { status: 'disconnected', reason: 'target down' }
  },
  async stop() {},
}

/** The fixture's action; `rendersInCaller` may be set by a test of that kind of driver's trace lines. */
export const fixtureAction: ActionDriver<FixtureTarget, { prefix: string }> & { rendersInCaller?: boolean } = {
  type: 'fixture',
  connectorType: 'fixture',
  prepare(parameters) {
    if (typeof parameters.prefix !== 'string') throw new Error('parameters.prefix: required field')
    return { prefix: parameters.prefix }
  },
  async send(target, prepared, batch, { trace }) {
    target.traced.push(trace !== undefined)
    trace?.rendered({ prefix: prepared.prefix, rows: batch.length })
    if (!target.up) throw new RecoverableError('target down')
    for (const row of batch) target.rows.push({ prefix: prepared.prefix, ...row })
  },
}

const source: SourceDriver<FixtureTarget> = {
  type: 'fixture',
  connectorType: 'fixture',
  async subscribe(target, _parameters, deliver) {
    const stop = target.subscribe(deliver)
    return async () => void stop()
  },
}

/** Offers the `fixture` type (call before the server starts). */
export function installFixtureType(): void {
  drivers.set('fixture', { connector, action: fixtureAction, source })
}
