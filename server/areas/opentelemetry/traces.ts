// OpenTelemetry traces as emqx_otel_trace.erl (5.8.9). Hooks are on the broker only while traces
// are enabled, so a message costs nothing when they are off.
// - legacy mode (the default): a received PUBLISH that carries a W3C `traceparent` user property
//   (or any, with `trace_all`) gets a `process_message` span under that parent, and each delivery
//   of it a child `send_published_message`, with `messaging.destination.name` and `messaging.client_id`.
// - e2e mode: root spans `client.connect`, `client.disconnect`, `client.subscribe`,
//   `client.unsubscribe` and `client.publish` (children `broker.publish` per delivery) for a
//   whitelisted client id or topic, under a sampled `traceparent` (when `follow_traceparent`), or
//   else as the e2e_tracing_options switch the event on, at `sample_ratio`.
import { ROOT_CONTEXT, trace, TraceFlags, type Attributes, type Context, type Tracer } from '@opentelemetry/api'
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc'
import type { Resource } from '@opentelemetry/resources'
import { sampleRatio, type OtelConfig } from '../../../contract/opentelemetry.ts'
import type { Broker } from '../../broker/broker.ts'
import { HP } from '../../broker/hook-priorities.ts'
import type { ClientInfo } from '../../broker/hooks.ts'
import type { Message } from '../../broker/message.ts'
import { batchOptions, exporterOptions } from './exporter.ts'
import type { Whitelist } from './whitelist.ts'

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** The context a W3C `traceparent` user property names, or undefined without a valid one. */
export function traceparentContext(message: Message): Context | undefined {
  const value = message.properties?.userProperties?.traceparent
  const text = Array.isArray(value) ? value[0] : value
  const match = typeof text === 'string' ? TRACEPARENT.exec(text.trim()) : null
  if (!match || match[1] === 'ff' || /^0+$/.test(match[2]) || /^0+$/.test(match[3])) return undefined
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: match[2], spanId: match[3], traceFlags: parseInt(match[4], 16) & TraceFlags.SAMPLED, isRemote: true })
}

const isSys = (topic: string) => topic.startsWith('$SYS/')
const basicAttrs = (info: Pick<ClientInfo, 'clientid' | 'username'>): Attributes => ({ 'client.clientid': info.clientid, 'client.username': info.username ?? '' })

export class Traces {
  readonly provider: TracerProvider
  private readonly tracer: Tracer
  private readonly unhooks: Array<() => void> = []
  /** The span context of a message being published, for the spans of its deliveries. */
  private readonly contexts = new WeakMap<Message, Context>()
  /** Set by the first `message.publish` callback, taken by the last one (the fold is synchronous). */
  private pending: Context | undefined

  constructor(broker: Broker, config: OtelConfig, resource: Resource, whitelist: Whitelist) {
    const traces = config.traces
    const processor = new BatchSpanProcessor({ exporter: new OTLPTraceExporter(exporterOptions(config.exporter)), ...batchOptions(traces) })
    this.provider = new TracerProvider({ resource, spanProcessors: [processor] })
    this.tracer = this.provider.getTracer('emqx')
    if (traces.filter.trace_mode === 'legacy') this.legacy(broker, traces.filter.trace_all)
    else this.e2e(broker, traces.filter.e2e_tracing_options, whitelist)
  }

  /** Unhooks; the provider is shut down by its owner (flushing what is queued). */
  unhook(): void {
    for (const unhook of this.unhooks.splice(0)) unhook()
  }

  private legacy(broker: Broker, traceAll: boolean): void {
    this.hookPublish(broker, (message) => {
      if (isSys(message.topic)) return undefined
      const parent = traceparentContext(message) ?? (traceAll ? ROOT_CONTEXT : undefined)
      if (!parent) return undefined
      const attributes = { 'messaging.destination.name': message.topic, 'messaging.client_id': message.from }
      return this.spanUntilRouted('process_message', attributes, parent)
    })
    this.hookDelivered(broker, 'send_published_message', (info, message) => ({ 'messaging.destination.name': message.topic, 'messaging.client_id': info.clientid }))
  }

  private e2e(broker: Broker, options: OtelConfig['traces']['filter']['e2e_tracing_options'], whitelist: Whitelist): void {
    const ratio = sampleRatio(options.sample_ratio)
    // emqx_otel_sampler: a sampled remote parent, or a whitelisted client id or topic, or else an
    // event switched on and the sample ratio.
    const sampled = (enabled: boolean, clientid: string | undefined, topic?: string, parent?: Context) =>
      (parent !== undefined && (trace.getSpanContext(parent)?.traceFlags ?? 0) & TraceFlags.SAMPLED) ||
      whitelist.hasClient(clientid) ||
      (topic !== undefined && whitelist.hasTopic(topic)) ||
      (enabled && (ratio >= 1 || Math.random() < ratio))
    const instant = (name: string, attributes: Attributes) => this.tracer.startSpan(name, { attributes, root: true }, ROOT_CONTEXT).end()
    const connects = options.client_connect_disconnect
    const subscribes = options.client_subscribe_unsubscribe
    this.unhooks.push(
      broker.hooks.add('client.connack', (conn, reasonCode) => {
        if (!sampled(connects, conn.clientid)) return
        instant('client.connect', {
          'client.clientid': conn.clientid ?? '',
          'client.username': conn.username ?? '',
          'client.proto_name': conn.protoName,
          'client.proto_ver': conn.protoVer,
          'client.clean_start': conn.cleanStart,
          'client.keepalive': conn.keepalive,
          'client.peername': `${conn.peerhost}:${conn.peerport}`,
          'client.sockname': `${conn.sockhost}:${conn.sockport}`,
          'client.connack.reason_code': reasonCode,
        })
      }, HP.LOWEST),
      broker.hooks.add('client.disconnected', (info, reason) => {
        if (sampled(connects, info.clientid)) instant('client.disconnect', { ...basicAttrs(info), 'client.disconnect.reason': reason })
      }, HP.LOWEST),
      broker.hooks.add('session.subscribed', (info, filter, opts) => {
        if (sampled(subscribes, info.clientid)) instant('client.subscribe', { ...basicAttrs(info), 'client.subscribe.topics': JSON.stringify([filter]), 'client.subscribe.sub_opts': JSON.stringify([opts]) })
      }, HP.LOWEST),
      broker.hooks.add('session.unsubscribed', (info, filter) => {
        if (sampled(subscribes, info.clientid)) instant('client.unsubscribe', { ...basicAttrs(info), 'client.unsubscribe.topics': JSON.stringify([filter]) })
      }, HP.LOWEST),
    )
    this.hookPublish(broker, (message) => {
      if (isSys(message.topic)) return undefined
      const parent = (options.follow_traceparent ? traceparentContext(message) : undefined) ?? ROOT_CONTEXT
      if (!sampled(options.client_messaging, message.from, message.topic, parent)) return undefined
      const attributes = { 'client.clientid': message.from, 'client.username': message.fromUsername ?? '', 'message.topic': message.topic }
      return this.spanUntilRouted('client.publish', attributes, parent)
    })
    this.hookDelivered(broker, 'broker.publish', (info, message) => ({
      ...basicAttrs(info),
      'message.msgid': message.id,
      'message.qos': message.qos,
      'message.from': message.from,
      'message.topic': message.topic,
      'message.retain': message.retain,
      'message.payload_size': message.payload.length,
    }))
  }

  /** A span from now until the publish has been routed (the rest of this synchronous turn). */
  private spanUntilRouted(name: string, attributes: Attributes, parent: Context): Context {
    const span = this.tracer.startSpan(name, { attributes }, parent)
    queueMicrotask(() => span.end())
    return trace.setSpan(parent, span)
  }

  /** `start` runs first on `message.publish` (before rewrite sees the topic); the context follows the message to its final form. */
  private hookPublish(broker: Broker, start: (message: Message) => Context | undefined): void {
    this.unhooks.push(
      broker.hooks.add('message.publish', (message) => {
        this.pending = start(message)
        return undefined
      }, HP.HIGHEST),
      broker.hooks.add('message.publish', (message) => {
        if (this.pending) this.contexts.set(message, this.pending)
        this.pending = undefined
        return undefined
      }, HP.LOWEST),
    )
  }

  private hookDelivered(broker: Broker, name: string, attributes: (info: ClientInfo, message: Message) => Attributes): void {
    this.unhooks.push(
      broker.hooks.add('message.delivered', (info, message) => {
        const parent = this.contexts.get(message)
        if (parent) this.tracer.startSpan(name, { attributes: attributes(info, message) }, parent).end()
      }, HP.LOWEST),
    )
  }
}
