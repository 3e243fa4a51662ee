// The event sources of the rule engine as the workbench uses GET /rule_events: which catalogue item
// a FROM topic means, the `event_type` of an item, and the test context an item's examples make.
import type { RuleEventInfo } from '../../../api/rules.ts'
import { RULE_EVENT_TYPES, type RuleEventType } from '../../../../contract/rules.ts'
import { lexSql } from './sqlLexer.ts'

/** How EMQX's catalogue names message publish; a FROM clause names it by topic filters instead. */
export const MESSAGE_PUBLISH_TOPIC = '$events/message_publish'

/** The topics in the SQL's FROM clause, unquoted, in order. */
export function fromTopics(sql: string): string[] {
  const tokens = lexSql(sql).filter((token) => token.kind !== 'comment')
  const from = tokens.findIndex((token) => token.kind === 'keyword' && token.text.toUpperCase() === 'FROM')
  if (from < 0) return []
  const topics: string[] = []
  for (const token of tokens.slice(from + 1)) {
    if (token.kind === 'name') topics.push(token.text.replace(/^"|"$/g, ''))
    else if (token.text !== ',') break
  }
  return topics
}

/** The catalogue item a FROM topic means: an `$events/...` topic itself, any other topic message publish. */
export function eventForTopic(events: readonly RuleEventInfo[], topic: string): RuleEventInfo | undefined {
  const exact = events.find((event) => event.event === topic)
  if (exact || topic.startsWith('$events/')) return exact
  return events.find((event) => event.event === MESSAGE_PUBLISH_TOPIC)
}

/** `$events/sys/alarm_activated` → `alarm_activated`; undefined for a source `/rule_test` does not take. */
export function eventTypeOf(topic: string): RuleEventType | undefined {
  const last = topic.split('/').at(-1) ?? ''
  return (RULE_EVENT_TYPES as readonly string[]).includes(last) ? (last as RuleEventType) : undefined
}

/** The catalogue item of an event type. */
export function eventOfType(events: readonly RuleEventInfo[], type: RuleEventType): RuleEventInfo | undefined {
  return events.find((event) => eventTypeOf(event.event) === type)
}

/** The event type a SQL tests best: its first FROM topic's (message publish for a topic filter). */
export function eventTypeForSql(sql: string): RuleEventType | undefined {
  const first = fromTopics(sql)[0]
  if (first === undefined) return undefined
  return first.startsWith('$events/') ? eventTypeOf(first) : 'message_publish'
}

/** The example of each test column (EMQX writes some as `[example, description]`). */
export function testContextOf(event: RuleEventInfo | undefined): Record<string, unknown> {
  if (!event) return {}
  return Object.fromEntries(
    Object.entries(event.test_columns).map(([column, value]) => [column, Array.isArray(value) && value.length === 2 && typeof value[1] === 'string' ? value[0] : value]),
  )
}

/** A topic the filter matches, for a test event: each `+` and a trailing `#` become a level `a`. */
export function topicMatching(filter: string): string {
  return filter
    .split('/')
    .map((level) => (level === '+' || level === '#' ? 'a' : level))
    .join('/')
}
