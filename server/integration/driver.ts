// What one data-integration type brings (issue 16): how its connector opens, checks and closes a
// connection, how its action sends rows to it, and how its source receives from it. The resource
// layer (buffering, batching, inflight window, retries, health checks, status, metrics, restart)
// is written once around these and knows no type; each type is one file under drivers/.
import type { Broker } from '../broker/broker.ts'
import type { TraceFields } from '../trace/event.ts'

/** A resource's status as EMQX reports it per node. */
export type ResourceStatus = 'connected' | 'connecting' | 'disconnected'

export interface ResourceHealth {
  status: ResourceStatus
  /** Why it is not connected, in the driver's words (EMQX's `status_reason`). */
  reason?: string
}

/** What a driver is given besides its config. */
export interface DriverContext {
  /** This node's name (`emqx@127.0.0.1`): MQTT bridges build client ids from it. */
  node: string
  /** `<type>:<name>` of the connector, action or source. */
  id: string
  broker: Broker
}

/** A failure worth trying again (the target is down, a timeout): the row stays queued and is retried. */
export class RecoverableError extends Error {
  override readonly name = 'RecoverableError'
}

/** A failure retrying cannot mend (a 4xx answer, a bad statement): the row is counted failed. */
export class UnrecoverableError extends Error {
  override readonly name = 'UnrecoverableError'
}

/** One connector type: its connection, opened from the connector's config (defaults filled in). */
export interface ConnectorDriver<Conn = unknown> {
  /** EMQX's connector type: `http`, `mqtt`, `redis`, `pgsql`, `mysql`, `influxdb`... */
  readonly type: string
  /** Settles a config without connecting (the HTTP URL, certificate files); throws the 400's reason. */
  check?(config: Record<string, unknown>): void
  /** Opens the connection; throws with the reason a probe answers as 'Test failed'. */
  start(config: Record<string, unknown>, ctx: DriverContext): Promise<Conn>
  /** A real round trip (a ping, `SELECT 1`, a HEAD), bounded in time. */
  health(conn: Conn): Promise<ResourceHealth>
  stop(conn: Conn): Promise<void>
}

/**
 * Given to a send only while a trace may want its rows (or a rule test stops the action after
 * rendering): 5.8's emqx_trace:rendered_action_template.
 */
export interface RenderTrace {
  /** `action:<type>:<name>:connector:<type>:<name>`, the action's resource id in 5.8. */
  readonly actionId: string
  /** query_mode async (InfluxDB writes it as `is_async`). */
  readonly async: boolean
  /**
   * What the driver rendered for the request (a row's, or the batch's when the batch is one request),
   * with 5.8's fields for its type. Called after rendering and before anything is sent, and outside
   * the driver's own error handling: in a rule test that stops after rendering it throws, and the
   * send must end there.
   */
  rendered(result: TraceFields): void
}

export interface SendOptions {
  timeoutMs: number
  signal: AbortSignal
  trace?: RenderTrace
}

/** One action type: rows selected by a rule, sent through a connection of its connector type. */
export interface ActionDriver<Conn = unknown, Prepared = unknown> {
  readonly type: string
  /** The connector type it sends through (usually the same name). */
  readonly connectorType: string
  /**
   * 5.8 queries it in the caller's process rather than a buffer worker (Kafka's
   * simple_async_internal_buffer): its rendered line also carries the caller's client, peer and rule.
   */
  readonly rendersInCaller?: boolean
  /** Checks the action's `parameters` and compiles its templates once; throws the 400 message. */
  prepare(parameters: Record<string, unknown>, ctx: DriverContext): Prepared
  /**
   * Sends a batch (one row when batching is off) within `timeoutMs`; resolves when the target
   * took all of it. Throws RecoverableError to retry, UnrecoverableError (or anything else) to fail.
   */
  send(conn: Conn, prepared: Prepared, batch: ReadonlyArray<Record<string, unknown>>, options: SendOptions): Promise<void>
  /** An action's own health on top of its connector's (a table that exists...). */
  health?(conn: Conn, prepared: Prepared): Promise<ResourceHealth>
}

/** One source type: rows received through a connection, handed to the rules (`$sources/<type>:<name>`). */
export interface SourceDriver<Conn = unknown> {
  readonly type: string
  readonly connectorType: string
  /** Checks the source's `parameters` before anything is saved; throws the 400's reason. */
  prepare?(parameters: Record<string, unknown>, ctx: DriverContext): unknown
  /** Starts receiving; `deliver` takes each received row (EMQX's source columns); answers how to stop. */
  subscribe(conn: Conn, parameters: Record<string, unknown>, deliver: (row: Record<string, unknown>) => void, ctx: DriverContext): Promise<() => Promise<void>>
}
