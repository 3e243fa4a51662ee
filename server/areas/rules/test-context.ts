// A test event's context filled as /rule_test fills it (fill_default_values): the fields the request
// gave over the event's example columns, with `event` named after `event_type`.
import { randomBytes } from 'node:crypto'

type Context = Record<string, unknown>

/** event_type -> the event's name and FROM topic (message_publish has none: its FROM is a topic filter). */
function eventOfType(eventType: string): { event: string; topic: string | undefined } {
  if (eventType === 'message_publish') return { event: 'message.publish', topic: undefined }
  if (eventType === 'alarm_activated' || eventType === 'alarm_deactivated') return { event: eventType.replace('_', '.'), topic: `$events/sys/${eventType}` }
  const [first, ...rest] = eventType.split('_')
  return { event: `${first}.${rest.join('_')}`, topic: `$events/${eventType}` }
}

/** columns_with_exam('message.publish'). */
function publishExamples(node: string): Context {
  const now = Date.now()
  return {
    event: 'message.publish',
    id: randomBytes(16).toString('hex').toUpperCase(),
    clientid: 'c_emqx',
    username: 'u_emqx',
    payload: '{"msg": "hello"}',
    peerhost: '192.168.0.10',
    peername: '192.168.0.10:32781',
    topic: 't/a',
    qos: 1,
    flags: {},
    publish_received_at: now,
    pub_props: { 'User-Property': { foo: 'bar' } },
    timestamp: now,
    node,
    client_attrs: {},
  }
}

/** The filled context and the event topic it stands for (undefined: a message's own topic). */
export function fillTestContext(given: Context, node: string, _firstFrom: string | undefined): { eventTopic: string | undefined; context: Context } {
  const eventType = typeof given.event_type === 'string' ? given.event_type : 'message_publish'
  const { event, topic } = eventOfType(eventType)
  const examples = event === 'message.publish' ? publishExamples(node) : { event, timestamp: Date.now(), node }
  const { event_type: _type, ...fields } = given
  return { eventTopic: topic, context: { ...examples, ...fields, event } }
}
