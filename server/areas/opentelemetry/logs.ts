// OpenTelemetry logs as EMQX 5.8's otel log handler: every server log record at or above
// `logs.level` becomes an OTel log record (severity, body = the message, the record's fields as
// attributes), exported in batches. `OtelFeature` attaches `Logs.emit` to the server logger with
// addLogSink while logs are enabled.
import { SeverityNumber, type AnyValue, type Attributes, type Logger } from '@opentelemetry/api'
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs'
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-grpc'
import type { Resource } from '@opentelemetry/resources'
import type { OtelConfig } from '../../../contract/opentelemetry.ts'
import type { LogRecord } from '../../log/index.ts'
import { LEVEL_VALUES, threshold, type RecordLevel } from '../../log/levels.ts'
import { batchOptions, exporterOptions } from './exporter.ts'

const SEVERITY: Readonly<Record<RecordLevel, SeverityNumber>> = {
  debug: SeverityNumber.DEBUG,
  info: SeverityNumber.INFO,
  notice: SeverityNumber.INFO2,
  warning: SeverityNumber.WARN,
  error: SeverityNumber.ERROR,
  critical: SeverityNumber.FATAL,
  alert: SeverityNumber.FATAL2,
  emergency: SeverityNumber.FATAL3,
}

function attributeValue(value: unknown): AnyValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  if (value instanceof Error) return value.stack ?? value.message
  return JSON.stringify(value)
}

export class Logs {
  readonly provider: LoggerProvider
  private readonly logger: Logger
  private readonly threshold: number

  constructor(config: OtelConfig, resource: Resource) {
    const processor = new BatchLogRecordProcessor({ exporter: new OTLPLogExporter(exporterOptions(config.exporter)), ...batchOptions(config.logs) })
    this.provider = new LoggerProvider({ resource, processors: [processor] })
    this.logger = this.provider.getLogger('emqx')
    this.threshold = threshold(config.logs.level)
  }

  /** A server log record (its time in microseconds, as the logger stamps it) as an OTel log record. */
  emit(record: LogRecord): void {
    if (LEVEL_VALUES[record.level] < this.threshold) return
    const attributes: Attributes = {}
    for (const [key, value] of Object.entries(record.fields)) attributes[key] = attributeValue(value) as Attributes[string]
    const seconds = Math.floor(record.time / 1_000_000)
    this.logger.emit({
      severityNumber: SEVERITY[record.level],
      severityText: record.level,
      body: record.msg,
      attributes,
      timestamp: [seconds, (record.time - seconds * 1_000_000) * 1000],
    })
  }
}
