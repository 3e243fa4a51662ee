// The running traces and what feeds them. While at least one trace runs, the hub is the broker's
// packet tracer, listens on the hooks that carry the other events, and is the rule engine's tracer;
// with none running it is none of these, so the broker pays nothing for traces it does not have.
import type { Packet } from 'mqtt-packet'
import type { TraceFormatter, TracePayloadEncode, TraceType } from '../../contract/trace.ts'
import type { Broker } from '../broker/broker.ts'
import type { AuthzAction, AuthzDetail, ClientInfo } from '../broker/hooks.ts'
import type { AccessTracer, AuthzSourceAnswer, BrokerTracer, TracedPeer } from '../broker/trace.ts'
import { authzSourceEvent, peername, publishRefusedEvent } from './authz-events.ts'
import type { TraceEvent, TraceFields } from './event.ts'
import { TraceFile } from './file.ts'
import { formatTraceLine } from './format.ts'
import { traceMatches, traceMayMatchClient, traceMayMatchMessage } from './match.ts'
import type { Message } from '../broker/message.ts'
import { brokerTraceHooks } from './broker-events.ts'

export interface RunningTraceSpec {
  name: string
  type: TraceType
  filter: string
  payloadEncode: TracePayloadEncode
  formatter: TraceFormatter
}

interface RunningTrace {
  spec: RunningTraceSpec
  file: TraceFile
}

/** Where rule engine events go while a trace runs (the engine holds it as `tracer`). */
export interface TraceEmitter {
  emit(event: TraceEvent): void
}

/** What the hub turns on and off with the first and last running trace besides the broker's packet tracer. */
export interface TraceAttachment {
  attach(emitter: TraceEmitter): void
  detach(): void
}

export class TraceHub implements BrokerTracer, AccessTracer, TraceEmitter {
  private readonly broker: Broker
  private readonly running = new Map<string, RunningTrace>()
  private readonly attachments: TraceAttachment[]
  private unhook: (() => void) | undefined
  /** What packet events can match (they carry no topic or rule): client ids and address prefixes. */
  private packetClientids = new Set<string>()
  private packetAddresses: string[] = []

  constructor(broker: Broker, attachments: TraceAttachment[] = []) {
    this.broker = broker
    this.attachments = attachments
  }

  isRunning(name: string): boolean {
    return this.running.has(name)
  }

  runningNames(): string[] {
    return [...this.running.keys()]
  }

  /** Starts writing a trace's events to `path` (appending: a restarted server goes on with the file). */
  start(spec: RunningTraceSpec, path: string, maxBytes: number): void {
    if (this.running.has(spec.name)) return
    this.running.set(spec.name, { spec, file: new TraceFile(path, maxBytes) })
    this.indexPackets()
    if (this.running.size === 1) this.attach()
  }

  stop(name: string): void {
    const trace = this.running.get(name)
    if (!trace) return
    trace.file.close()
    this.running.delete(name)
    this.indexPackets()
    if (this.running.size === 0) this.detach()
  }

  /** Writes what waits for this trace's file, so a read sees every line emitted so far. */
  flush(name: string): void {
    this.running.get(name)?.file.flush()
  }

  stopAll(): void {
    for (const name of [...this.running.keys()]) this.stop(name)
  }

  emit(event: TraceEvent): void {
    const at = Date.now()
    for (const { spec, file } of this.running.values()) {
      if (traceMatches(spec.type, spec.filter, event)) file.append(formatTraceLine(event, at, spec.formatter, spec.payloadEncode))
    }
  }

  /** Whether any running trace may write an event about this message: asked before one is built. */
  wantsMessage(message: Message): boolean {
    for (const { spec } of this.running.values()) if (traceMayMatchMessage(spec.type, spec.filter, message)) return true
    return false
  }

  wantsClient(info: ClientInfo, topic: string | undefined): boolean {
    for (const { spec } of this.running.values()) if (traceMayMatchClient(spec.type, spec.filter, info, topic)) return true
    return false
  }

  authzSource(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail, source: string, answer: AuthzSourceAnswer): void {
    if (this.wantsClient(info, topic)) this.emit(authzSourceEvent(info, action, topic, detail, source, answer))
  }

  received(peer: TracedPeer, packet: Packet): void {
    if (this.wantsPacketsOf(peer)) this.emit(packetEvent('mqtt_packet_received', peer, packet))
  }

  sent(peer: TracedPeer, packet: Packet): void {
    if (this.wantsPacketsOf(peer)) this.emit(packetEvent('mqtt_packet_sent', peer, packet))
  }

  authn(info: ClientInfo, msg: string, fields: Record<string, string>): void {
    if (this.wantsClient(info, undefined)) this.emit({ tag: 'AUTHN', msg, clientid: info.clientid, peername: peername(info), username: info.username, fields })
  }

  channelTrace(peer: TracedPeer, msg: string, fields: Record<string, string>): void {
    if (this.wantsPacketsOf(peer)) this.emit({ tag: 'MQTT', msg, clientid: peer.clientid, peername: `${peer.peerhost}:${peer.peerport}`, username: peer.username, fields })
  }

  forceClosed(peer: TracedPeer, reason: string): void {
    if (this.wantsPacketsOf(peer)) this.emit({ tag: 'SOCKET', msg: 'socket_force_closed', clientid: peer.clientid, peername: `${peer.peerhost}:${peer.peerport}`, username: peer.username, fields: { reason } })
  }

  publishRefused(info: ClientInfo, topic: string): void {
    if (this.wantsClient(info, topic)) this.emit(publishRefusedEvent(info, topic))
  }

  /** A trace on one client among many: the others' packets are passed over without building an event. */
  private wantsPacketsOf(peer: TracedPeer): boolean {
    if (peer.clientid !== undefined && this.packetClientids.has(peer.clientid)) return true
    if (this.packetAddresses.length === 0) return false
    const peername = `${peer.peerhost}:${peer.peerport}`
    return this.packetAddresses.some((prefix) => peername.startsWith(prefix))
  }

  private indexPackets(): void {
    const specs = [...this.running.values()].map((trace) => trace.spec)
    this.packetClientids = new Set(specs.filter((spec) => spec.type === 'clientid').map((spec) => spec.filter))
    this.packetAddresses = specs.filter((spec) => spec.type === 'ip_address').map((spec) => spec.filter)
  }

  private attach(): void {
    this.broker.tracer = this
    this.broker.access.tracer = this
    this.unhook = brokerTraceHooks(this.broker, this)
    for (const attachment of this.attachments) attachment.attach(this)
  }

  private detach(): void {
    this.broker.tracer = undefined
    this.broker.access.tracer = undefined
    this.unhook?.()
    this.unhook = undefined
    for (const attachment of this.attachments) attachment.detach()
  }
}

function packetEvent(msg: string, peer: TracedPeer, packet: Packet): TraceEvent {
  const fields: TraceFields = { packet: { packet } }
  return { tag: 'MQTT', msg, clientid: peer.clientid, peername: `${peer.peerhost}:${peer.peerport}`, username: peer.username, fields }
}
