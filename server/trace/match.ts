// Which events a trace writes, as emqx_trace_handler's filters decide: a client id trace the events
// of that client, a topic trace the events about a topic its filter matches, an address trace the
// events of peers whose `host:port` begins with it, a rule trace the events of that rule (a buffer
// worker's line, about a batch, matches the traces of each of its rows' rules and clients).
import type { TraceType } from '../../contract/trace.ts'
import { matchesFilter } from '../broker/topic-trie.ts'
import type { ClientInfo } from '../broker/hooks.ts'
import type { Message } from '../broker/message.ts'
import type { TraceEvent } from './event.ts'

export function traceMatches(type: TraceType, filter: string, event: TraceEvent): boolean {
  switch (type) {
    case 'clientid':
      return event.clientid === filter || (event.clientIds !== undefined && event.clientIds.includes(filter))
    case 'topic':
      return event.topic !== undefined && matchesFilter(filter, event.topic)
    case 'ip_address':
      return event.peername !== undefined && event.peername.startsWith(filter)
    case 'ruleid':
      return event.ruleId === filter || (event.ruleIds !== undefined && event.ruleIds.includes(filter))
  }
}

/**
 * Whether a trace may write an event about this message (its publish, its drop), asked before the
 * event is built: a trace on one client among many costs the others' messages one comparison. An
 * address trace is asked about the host alone (the message keeps no port), so it may answer yes
 * where the event, with the port, then does not match.
 */
export function traceMayMatchMessage(type: TraceType, filter: string, message: Message): boolean {
  switch (type) {
    case 'clientid':
      return message.from === filter
    case 'topic':
      return matchesFilter(filter, message.topic)
    case 'ip_address':
      return message.peerhost !== undefined && (`${message.peerhost}:`.startsWith(filter) || filter.startsWith(`${message.peerhost}:`))
    case 'ruleid':
      return false
  }
}

/** Whether a trace may write an event of this client (about this topic, if any), asked before the event is built. */
export function traceMayMatchClient(type: TraceType, filter: string, info: ClientInfo, topic: string | undefined): boolean {
  switch (type) {
    case 'clientid':
      return info.clientid === filter
    case 'topic':
      return topic !== undefined && matchesFilter(filter, topic)
    case 'ip_address':
      return `${info.peerhost}:${info.peerport}`.startsWith(filter)
    case 'ruleid':
      return false
  }
}
