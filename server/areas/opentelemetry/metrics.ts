// OpenTelemetry metrics as emqx_otel_metrics.erl (5.8.9): the broker's stats and VM figures as
// observable gauges, its metrics as observable counters, under EMQX's own dotted names
// (`connections.count`, `messages.received`, `cpu.use`, `node.running`), read on every export.
import type { BatchObservableResult } from '@opentelemetry/api'
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc'
import type { Resource } from '@opentelemetry/resources'
import { otelDurationMs, type OtelConfig } from '../../../contract/opentelemetry.ts'
import { METRIC_NAMES, STAT_NAMES } from '../../../contract/stats-metrics.ts'
import type { Broker } from '../../broker/broker.ts'
import { VM_STAT_NAMES, VmStats } from '../../metrics/vm-stats.ts'
import { exporterOptions } from './exporter.ts'

/** to_metric_name/1: the two metrics whose OpenTelemetry name differs from the key. */
const RENAMED: Readonly<Record<string, string>> = {
  'messages.dropped.await_pubrel_timeout': 'messages.dropped.expired',
  'packets.connect.received': 'packets.connect',
}

/** bytes_metrics/0 (unit `kb` in EMQX, though most of them count packets). */
const KB_METRICS = new Set<string>(['bytes.received', 'bytes.sent', ...METRIC_NAMES.filter((name) => name.startsWith('packets.'))])

/** normalize_name/1: `cpu_use` -> `cpu.use`. */
const vmName = (key: string) => key.replace(/_/g, '.')

export function startMetrics(broker: Broker, config: OtelConfig, resource: Resource): MeterProvider {
  const reader = new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter(exporterOptions(config.exporter)),
    exportIntervalMillis: otelDurationMs(config.metrics.interval),
  })
  const provider = new MeterProvider({ resource, readers: [reader] })
  const meter = provider.getMeter('emqx')
  const gauge = (name: string) => meter.createObservableGauge(name, { description: `observable ${name} gauge`, unit: '1' })
  const counter = (name: string, unit: string) => meter.createObservableCounter(name, { description: `observable ${name} counter`, unit })

  const stats = STAT_NAMES.map((key) => [key, gauge(key)] as const)
  const vm = new VmStats()
  const vmGauges = VM_STAT_NAMES.map((key) => [key, gauge(vmName(key))] as const)
  const running = gauge('node.running')
  const stopped = gauge('node.stopped')
  const counters = METRIC_NAMES.map((key) => [key, counter(RENAMED[key] ?? key, KB_METRICS.has(key) ? 'kb' : '1')] as const)
  // One reading of each source per export, shared by its instruments.
  meter.addBatchObservableCallback(
    (observer: BatchObservableResult) => {
      const now = broker.stats() as Record<string, number>
      for (const [key, instrument] of stats) observer.observe(instrument, now[key] ?? 0)
      const vmNow = vm.read()
      for (const [key, instrument] of vmGauges) observer.observe(instrument, vmNow[key])
      observer.observe(running, 1)
      observer.observe(stopped, 0)
      const metrics = broker.metrics.snapshot()
      for (const [key, instrument] of counters) observer.observe(instrument, metrics[key])
    },
    [...stats.map(([, instrument]) => instrument), ...vmGauges.map(([, instrument]) => instrument), running, stopped, ...counters.map(([, instrument]) => instrument)],
  )
  return provider
}
