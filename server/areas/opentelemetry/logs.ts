// OpenTelemetry logs as EMQX 5.8's otel log handler: every server log record at or above
// `logs.level` becomes an OTel log record (severity, body = the message, the other fields as
// attributes), exported in batches. The server logger hands records to a sink, `(record) => void`:
// `OtelFeature.logSink` is one, wired with `addLogSink(otel.logSink)`.
import { SeverityNumber, type AnyValue, type Attributes, type Logger } from '@opentelemetry/api'
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs'
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-grpc'
import type { Resource } from '@opentelemetry/resources'
import { OTEL_LOG_LEVELS, type OtelConfig, type OtelLogLevel } from '../../../contract/opentelemetry.ts'
import { batchOptions, exporterOptions } from './exporter.ts'

/** A log record as the server logger gives it (pino's shape): a level, a message, any other fields. */
export interface LogInput {
  /** pino's number (10 trace … 60 fatal) or a level name (EMQX's or pino's). */
  level: number | string
  msg?: string
  /** Epoch ms. */
  time?: number
  [field: string]: unknown
}

export type LogSink = (record: LogInput) => void

type EmqxLevel = Exclude<OtelLogLevel, 'all'>

/** pino's numeric levels and label names as EMQX's levels. */
const PINO_LEVELS: ReadonlyArray<readonly [number, EmqxLevel]> = [
  [60, 'critical'],
  [50, 'error'],
  [40, 'warning'],
  [30, 'info'],
  [0, 'debug'],
]
const NAMED: Readonly<Record<string, EmqxLevel>> = { trace: 'debug', warn: 'warning', fatal: 'critical' }

const SEVERITY: Readonly<Record<EmqxLevel, SeverityNumber>> = {
  debug: SeverityNumber.DEBUG,
  info: SeverityNumber.INFO,
  notice: SeverityNumber.INFO2,
  warning: SeverityNumber.WARN,
  error: SeverityNumber.ERROR,
  critical: SeverityNumber.FATAL,
  alert: SeverityNumber.FATAL2,
  emergency: SeverityNumber.FATAL3,
}

export function emqxLevel(level: number | string): EmqxLevel {
  if (typeof level === 'number') return PINO_LEVELS.find(([floor]) => level >= floor)?.[1] ?? 'debug'
  const name = level.toLowerCase()
  return NAMED[name] ?? (name in SEVERITY ? (name as EmqxLevel) : 'info')
}

/** `all` lets everything through, as debug does. */
const rank = (level: OtelLogLevel) => (level === 'all' ? 0 : OTEL_LOG_LEVELS.indexOf(level))

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
    this.threshold = rank(config.logs.level)
  }

  emit(record: LogInput): void {
    const level = emqxLevel(record.level)
    if (rank(level) < this.threshold) return
    const { level: _level, msg, time, ...fields } = record
    const attributes: Attributes = {}
    for (const [key, value] of Object.entries(fields)) attributes[key] = attributeValue(value) as Attributes[string]
    this.logger.emit({ severityNumber: SEVERITY[level], severityText: level, body: msg ?? '', attributes, ...(time ? { timestamp: time } : {}) })
  }
}
