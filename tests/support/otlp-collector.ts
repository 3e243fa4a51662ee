// A real OTLP/gRPC collector for the OpenTelemetry tests: a @grpc/grpc-js server on a free loopback
// port implementing the metrics, trace and logs collector services, decoding each export request
// with protobufjs from the OTLP definitions (only the fields the tests read; the rest is skipped as
// protobuf allows) and keeping what arrived.
import { Server, ServerCredentials, type ServiceDefinition, type UntypedHandleCall } from '@grpc/grpc-js'
import protobuf from 'protobufjs'

// opentelemetry-proto v1: common, resource, metrics, trace and logs messages, field numbers as published.
const OTLP_PROTO = `
syntax = "proto3";
package otlp;
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7; } }
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message Resource { repeated KeyValue attributes = 1; }
message InstrumentationScope { string name = 1; string version = 2; }
message ExportMetricsServiceRequest { repeated ResourceMetrics resource_metrics = 1; }
message ResourceMetrics { Resource resource = 1; repeated ScopeMetrics scope_metrics = 2; }
message ScopeMetrics { InstrumentationScope scope = 1; repeated Metric metrics = 2; }
message Metric { string name = 1; string description = 2; string unit = 3; Gauge gauge = 5; Sum sum = 7; }
message Gauge { repeated NumberDataPoint data_points = 1; }
message Sum { repeated NumberDataPoint data_points = 1; int32 aggregation_temporality = 2; bool is_monotonic = 3; }
message NumberDataPoint { fixed64 start_time_unix_nano = 2; fixed64 time_unix_nano = 3; double as_double = 4; sfixed64 as_int = 6; repeated KeyValue attributes = 7; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message Span { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; }
message ExportLogsServiceRequest { repeated ResourceLogs resource_logs = 1; }
message ResourceLogs { Resource resource = 1; repeated ScopeLogs scope_logs = 2; }
message ScopeLogs { InstrumentationScope scope = 1; repeated LogRecord log_records = 2; }
message LogRecord { fixed64 time_unix_nano = 1; int32 severity_number = 2; string severity_text = 3; AnyValue body = 5; repeated KeyValue attributes = 6; fixed64 observed_time_unix_nano = 11; }
`
const root = protobuf.parse(OTLP_PROTO, { keepCase: true }).root

type Attributes = Record<string, unknown>

export interface ReceivedMetric {
  name: string
  unit: string
  description: string
  kind: 'gauge' | 'sum'
  value: number | undefined
}
export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId: string
  name: string
  attributes: Attributes
}
export interface ReceivedLog {
  severityNumber: number
  severityText: string
  body: unknown
  attributes: Attributes
}

export interface OtlpCollector {
  /** `http://127.0.0.1:<port>`, the exporter's endpoint. */
  endpoint: string
  metrics: ReceivedMetric[]
  spans: ReceivedSpan[]
  logs: ReceivedLog[]
  /** The gRPC metadata (headers) of the last export request. */
  lastMetadata: Record<string, unknown>
  stop(): Promise<void>
}

type Decoded = any // protobufjs decodes to plain objects of the schema above

function anyValue(value: Decoded): unknown {
  if (!value) return undefined
  if ('string_value' in value) return value.string_value
  if ('bool_value' in value) return value.bool_value
  if ('int_value' in value) return Number(value.int_value)
  if ('double_value' in value) return value.double_value
  return value
}

function attributes(list: Decoded[] | undefined): Attributes {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, anyValue(kv.value)]))
}

const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('hex')

function numberOf(point: Decoded): number | undefined {
  if (!point) return undefined
  if (point.as_int !== undefined) return Number(point.as_int)
  return point.as_double
}

function decode(type: string, buffer: Buffer): Decoded {
  return root.lookupType(`otlp.${type}`).toObject(root.lookupType(`otlp.${type}`).decode(buffer), { longs: String, defaults: false })
}

function service(name: string, onRequest: (buffer: Buffer) => void, collector: OtlpCollector): [ServiceDefinition, Record<string, UntypedHandleCall>] {
  const definition: ServiceDefinition = {
    Export: {
      path: `/opentelemetry.proto.collector.${name}/Export`,
      requestStream: false,
      responseStream: false,
      requestSerialize: (value: Buffer) => value,
      requestDeserialize: (buffer: Buffer) => buffer,
      responseSerialize: () => Buffer.alloc(0),
      responseDeserialize: (buffer: Buffer) => buffer,
    },
  }
  const handler = (call: Decoded, callback: (error: null, answer: Buffer) => void) => {
    collector.lastMetadata = call.metadata.getMap()
    onRequest(call.request as Buffer)
    callback(null, Buffer.alloc(0))
  }
  return [definition, { Export: handler }]
}

export async function startOtlpCollector(): Promise<OtlpCollector> {
  const server = new Server()
  const collector: OtlpCollector = {
    endpoint: '',
    metrics: [],
    spans: [],
    logs: [],
    lastMetadata: {},
    stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  }
  const onMetrics = (buffer: Buffer) => {
    for (const rm of decode('ExportMetricsServiceRequest', buffer).resource_metrics ?? [])
      for (const sm of rm.scope_metrics ?? [])
        for (const m of sm.metrics ?? []) {
          const kind = m.gauge ? 'gauge' : 'sum'
          collector.metrics.push({ name: m.name, unit: m.unit ?? '', description: m.description ?? '', kind, value: numberOf((m.gauge ?? m.sum)?.data_points?.[0]) })
        }
  }
  const onSpans = (buffer: Buffer) => {
    for (const rs of decode('ExportTraceServiceRequest', buffer).resource_spans ?? [])
      for (const ss of rs.scope_spans ?? [])
        for (const s of ss.spans ?? []) collector.spans.push({ traceId: hex(s.trace_id), spanId: hex(s.span_id), parentSpanId: hex(s.parent_span_id), name: s.name, attributes: attributes(s.attributes) })
  }
  const onLogs = (buffer: Buffer) => {
    for (const rl of decode('ExportLogsServiceRequest', buffer).resource_logs ?? [])
      for (const sl of rl.scope_logs ?? [])
        for (const l of sl.log_records ?? []) collector.logs.push({ severityNumber: l.severity_number ?? 0, severityText: l.severity_text ?? '', body: anyValue(l.body), attributes: attributes(l.attributes) })
  }
  server.addService(...service('metrics.v1.MetricsService', onMetrics, collector))
  server.addService(...service('trace.v1.TraceService', onSpans, collector))
  server.addService(...service('logs.v1.LogsService', onLogs, collector))
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  )
  collector.endpoint = `http://127.0.0.1:${port}`
  return collector
}
