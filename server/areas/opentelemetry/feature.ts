// The OpenTelemetry integration's state: its settings, and the metrics, traces and logs pipelines
// each runs while enabled (emqx_otel_app starts and stops them on every config change). A change
// shuts the old pipelines down (flushing what they hold) and starts the new ones.
import * as v from 'valibot'
import type { MeterProvider } from '@opentelemetry/sdk-metrics'
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources'
import { OtelConfigSchema, type OtelConfig } from '../../../contract/opentelemetry.ts'
import type { Broker } from '../../broker/broker.ts'
import { addLogSink, log, type LogRecord, type LogSink } from '../../log/index.ts'
import { Logs } from './logs.ts'
import { startMetrics } from './metrics.ts'
import { Traces } from './traces.ts'
import { Whitelist } from './whitelist.ts'
import type { SettingsStore } from '../../http/settings-route.ts'

export const defaultOtelConfig: OtelConfig = v.parse(OtelConfigSchema, {})

interface Pipelines {
  metrics?: MeterProvider
  traces?: Traces
  logs?: Logs
  /** Detaches the log sink from the server logger. */
  detachLogs?: () => void
}

export class OtelFeature {
  private readonly broker: Broker
  private readonly resource: Resource
  private settings: OtelConfig = defaultOtelConfig
  private running: Pipelines = {}
  /** The pipelines being shut down, so `stopped()` can wait for their last export. */
  private stopping: Promise<unknown> = Promise.resolve()

  /** The e2e tracing whitelists. */
  readonly whitelist: Whitelist

  constructor(broker: Broker, store: SettingsStore) {
    this.broker = broker
    this.whitelist = new Whitelist(store)
    this.resource = resourceFromAttributes({ 'service.name': 'emqx', 'service.instance.id': broker.node })
  }

  get config(): OtelConfig {
    return this.settings
  }

  configure(config: OtelConfig): void {
    this.shutdown()
    this.settings = config
    const running: Pipelines = {}
    if (config.metrics.enable) running.metrics = startMetrics(this.broker, config, this.resource)
    if (config.traces.enable) running.traces = new Traces(this.broker, config, this.resource, this.whitelist)
    if (config.logs.enable) {
      running.logs = new Logs(config, this.resource)
      running.detachLogs = addLogSink(this.logSink, config.logs.level)
    }
    this.running = running
  }

  /** The sink attached to the server logger while logs are enabled: a record becomes an OTel log record. */
  readonly logSink: LogSink = (record: LogRecord) => this.running.logs?.emit(record)

  /** Exports what the pipelines hold now (for an operator's "send now", and tests). */
  async flush(): Promise<void> {
    const { metrics, traces, logs } = this.running
    await Promise.all([
      metrics?.forceFlush(),
      traces?.provider.forceFlush(),
      logs?.provider.forceFlush(),
    ])
  }

  /** Resolves once every pipeline shut down so far has finished its last export. */
  stopped(): Promise<unknown> {
    return this.stopping
  }

  stop(): void {
    this.shutdown()
  }

  private shutdown(): void {
    const { metrics, traces, logs, detachLogs } = this.running
    this.running = {}
    traces?.unhook()
    detachLogs?.()
    const done = [metrics?.shutdown(), traces?.provider.shutdown(), logs?.provider.shutdown()].map((promise) => promise?.catch((error: unknown) => log.warning({ err: error }, 'otel_shutdown_failed')))
    this.stopping = Promise.all([this.stopping, ...done])
  }
}
