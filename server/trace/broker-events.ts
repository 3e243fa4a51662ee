// The events a trace writes from the broker's hooks (EMQX's ?TRACE calls outside the connection):
// the authorization decision, subscribe and unsubscribe, every publish (`publish_to`, before any
// hook changes it, as emqx_broker:publish/1 traces), drops (drop-events.ts), and the end of a
// connection with its reason. Authentication's lines come through AccessControl.tracer.
import type { Broker } from '../broker/broker.ts'
import { HP } from '../broker/hook-priorities.ts'
import type { ClientInfo, SubOptions } from '../broker/hooks.ts'
import type { Message } from '../broker/message.ts'
import { peername, permissionEvent, superuserEvent } from './authz-events.ts'
import { deliveryDropEvent, messageDropEvents, messageEvent } from './drop-events.ts'
import type { TraceEvent, TraceFields } from './event.ts'

interface Emitter {
  emit(event: TraceEvent): void
  /** Whether some trace may want an event about this message, asked before building one. */
  wantsMessage(message: Message): boolean
  /** Whether some trace may want an event of this client (about this topic, if any). */
  wantsClient(info: ClientInfo, topic: string | undefined): boolean
}

function subOpts(options: SubOptions | undefined): TraceFields {
  if (!options) return {}
  const opts: TraceFields = { nl: options.nl ? 1 : 0, qos: options.qos, rap: options.rap ? 1 : 0, rh: options.rh }
  if (options.share !== undefined) opts.share = options.share
  return opts
}

/** Hooks the trace events on; returns the function that takes them off. */
export function brokerTraceHooks(broker: Broker, out: Emitter): () => void {
  const hooks = broker.hooks
  const removers = [
    hooks.add('client.check_authz_complete', (info, action, topic, result, source, detail) => {
      if (source === 'cache' || !out.wantsClient(info, topic)) return
      if (source === 'superuser') out.emit(superuserEvent(info, action, topic, detail))
      out.emit(permissionEvent(info, action, topic, result, source, detail))
    }, HP.LOWEST),
    // 5.8 traces no subscription to its own `$SYS/` topics (emqx_trace:subscribe/3).
    hooks.add('session.subscribed', (info, filter, options) => {
      if (!filter.startsWith('$SYS/')) out.emit({ tag: 'SUBSCRIBE', msg: 'subscribe', clientid: info.clientid, peername: peername(info), username: info.username, topic: filter, fields: { sub_id: info.clientid, sub_opts: subOpts(options) } })
    }, HP.LOWEST),
    hooks.add('session.unsubscribed', (info, filter, options) => {
      if (!filter.startsWith('$SYS/')) out.emit({ tag: 'UNSUBSCRIBE', msg: 'unsubscribe', clientid: info.clientid, peername: peername(info), username: info.username, topic: filter, fields: { sub_opts: subOpts(options) } })
    }, HP.LOWEST),
    hooks.add('message.publish', (message) => {
      if (!message.topic.startsWith('$SYS/') && out.wantsMessage(message)) out.emit(messageEvent(broker, 'PUBLISH', 'publish_to', message))
      return undefined
    }, HP.HIGHEST + 1),
    hooks.add('message.dropped', (message, reason) => {
      if (!message.topic.startsWith('$SYS/') && out.wantsMessage(message)) for (const event of messageDropEvents(broker, message, reason)) out.emit(event)
    }, HP.LOWEST),
    hooks.add('delivery.dropped', (info, message, reason) => {
      if (out.wantsClient(info, message.topic)) out.emit(deliveryDropEvent(broker, info, message, reason))
    }, HP.LOWEST),
    hooks.add('client.disconnected', (info, reason) => {
      out.emit({ tag: 'SOCKET', msg: 'emqx_connection_terminated', clientid: info.clientid, peername: peername(info), username: info.username, fields: { reason } })
    }, HP.LOWEST),
  ]
  return () => {
    for (const remove of removers) remove()
  }
}
