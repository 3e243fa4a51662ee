// Functions of the message being processed (msgid/0, topic/0, payload/1…). As in EMQX, each returns a
// function of the context map, which the SQL engine applies to the current message. The context uses
// EMQX's message keys: id, qos, flags, topic, from (the client id), username, peerhost, payload.
import { matchesFilter } from '../../broker/topic-trie.ts'
import { nestedGet } from './map.ts'
import { erlangEqual } from './math.ts'
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { badarg, int, isMap, text, type RuleMap } from './values.ts'

export type ContextFunction = (context: RuleMap) => unknown

const field = (key: string, absent: unknown = undefined) =>
  ruleFn([0], (): ContextFunction => (context) => (isMap(context) && key in context ? context[key] : absent))

function findTopicFilter(filters: unknown, topic: unknown, matches: (elementTopic: string, topic: string) => boolean): RuleMap | undefined {
  if (!Array.isArray(filters)) return badarg('contains_topic', filters, topic)
  const wanted = text('contains_topic', topic)
  return filters.find((f): f is RuleMap => isMap(f) && typeof f.topic === 'string' && matches(f.topic, wanted))
}

const containsTopic = (matches: (elementTopic: string, topic: string) => boolean) =>
  ruleFn([2, 3], (filters, topic, qos) => {
    const found = findTopicFilter(filters, topic, matches)
    return qos === undefined ? found !== undefined : found !== undefined && erlangEqual(found.qos, qos)
  })

export const contextFunctions: RuleFunctionGroup = {
  msgid: field('id'),
  qos: field('qos'),
  flags: field('flags', {}),
  flag: ruleFn([1], (name): ContextFunction => (context) => (isMap(context.flags) ? nestedGet([text('flag', name)], context.flags) : undefined)),
  topic: ruleFn([0, 1], (level): ContextFunction => {
    if (level === undefined) return (context) => context.topic
    const n = int('topic', level)
    return (context) => {
      if (typeof context.topic !== 'string') return undefined
      const levels = context.topic.split('/')
      return n >= 1 && n <= levels.length ? levels[n - 1] : badarg('topic', level)
    }
  }),
  clientid: field('from'),
  clientip: field('peerhost'),
  peerhost: field('peerhost'),
  username: field('username'),
  payload: ruleFn([0, 1], (path): ContextFunction => {
    if (path === undefined) return (context) => context.payload
    const keys = text('payload', path).split('.')
    return (context) => (isMap(context.payload) ? nestedGet(keys, context.payload) : undefined)
  }),
  contains_topic: containsTopic((elementTopic, topic) => elementTopic === topic),
  // emqx_topic:match(ElementTopic, Topic): the argument is the filter.
  contains_topic_match: containsTopic((elementTopic, topic) => matchesFilter(topic, elementTopic)),
}
