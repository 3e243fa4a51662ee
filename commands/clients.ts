// Client operations. No React and no DOM: the palette, screens, scripts and the CLI share these.
import * as v from 'valibot'
import { defineCommand, type Completer } from './define.ts'

const required = (title: string) => v.pipe(v.string(), v.title(title), v.minLength(1, 'err.required'))
const clientid = () => required('clients.field.clientid')

/** True when a topic name has no wildcard (publish topics must not: MQTT 0x90). */
export function isTopicName(topic: string): boolean {
  return !topic.includes('+') && !topic.includes('#')
}

/** A topic filter: `#` only as the whole last level, `+` only as a whole level (MQTT 4.7.1). */
export function isTopicFilter(filter: string): boolean {
  if (filter === '') return false
  const levels = filter.split('/')
  return levels.every((level, i) => {
    if (level.includes('#')) return level === '#' && i === levels.length - 1
    if (level.includes('+')) return level === '+'
    return true
  })
}

/** Arguments several areas share: QoS and the MQTT 5 subscription options. */
export const qosArg = () => v.optional(v.pipe(v.picklist([0, 1, 2], 'err.oneOf'), v.title('form.field.qos')), 0)
export const topicFilterArg = () =>
  v.pipe(v.string(), v.title('form.field.topic'), v.minLength(1, 'err.topicRequired'), v.check(isTopicFilter, 'err.topicFilter'))
export const subscriptionOptionArgs = () => ({
  qos: qosArg(),
  nl: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.nl')), false),
  rap: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.rap')), false),
  rh: v.optional(v.pipe(v.picklist([0, 1, 2], 'err.oneOf'), v.title('form.field.rh')), 0),
})

export const completeClientId: Completer = (api, query, signal) => api.clients.suggest(query, signal)
export const completeTopic: Completer = (api, query, signal) => api.topics.suggest(query, signal)

/** Disconnects a client and clears its session (SPEC 4: a client can be kicked out). */
export const kickClient = defineCommand({
  id: 'client.kick',
  title: 'cmd.client.kick',
  group: 'cmdGroup.clients',
  args: v.object({ clientid: clientid() }),
  positional: ['clientid'],
  danger: true,
  aliases: ['kick', 'disconnect', '踢出'],
  complete: { clientid: completeClientId },
  describe: ({ clientid }) => ({ key: 'cmd.client.kickDescribe', values: { clientid } }),
  run: (ctx, { clientid }) => ctx.api.clients.kick(clientid),
})

/** Subscribes a connected client on its behalf, as if it had sent SUBSCRIBE. */
export const subscribeClient = defineCommand({
  id: 'client.subscribe',
  title: 'cmd.client.subscribe',
  group: 'cmdGroup.clients',
  args: v.object({ clientid: clientid(), topic: topicFilterArg(), ...subscriptionOptionArgs() }),
  positional: ['clientid', 'topic'],
  aliases: ['subscribe', 'sub', '订阅'],
  complete: { clientid: completeClientId, topic: completeTopic },
  run: (ctx, { clientid, topic, qos, nl, rap, rh }) =>
    ctx.api.clients.subscribe(clientid, { topic, qos, nl: nl ? 1 : 0, rap: rap ? 1 : 0, rh }),
})

export const unsubscribeClient = defineCommand({
  id: 'client.unsubscribe',
  title: 'cmd.client.unsubscribe',
  group: 'cmdGroup.clients',
  args: v.object({ clientid: clientid(), topic: required('form.field.topic') }),
  positional: ['clientid', 'topic'],
  danger: true,
  aliases: ['unsubscribe', 'unsub', '取消订阅'],
  complete: { clientid: completeClientId, topic: completeTopic },
  describe: ({ clientid, topic }) => ({ key: 'cmd.client.unsubscribeDescribe', values: { clientid, topic } }),
  run: (ctx, { clientid, topic }) => ctx.api.clients.unsubscribe(clientid, topic),
})

export const clientCommands = [kickClient, subscribeClient, unsubscribeClient]
