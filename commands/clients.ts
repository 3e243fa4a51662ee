// Client operations. No React and no DOM: the palette, screens, scripts and the CLI share these.
import * as v from 'valibot'
import { defineCommand, type Completer } from './define.ts'
import { givenArgs } from './args.ts'
import { booleanFilter, choiceFilter, defineRead, pagedTable, pageArgs, shortTime, textFilter } from './format/read.ts'
import type { Client } from '../src/api/clients.ts'
import type { Subscription } from '../src/api/subscriptions.ts'
import type { Topic } from '../src/api/topics.ts'

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
/** MQTT topics are at most 65535 bytes of UTF-8 (SPEC 5: topic length limit). */
export const MAX_TOPIC_BYTES = 65535
export const fitsTopicLength = (topic: string) => new TextEncoder().encode(topic).length <= MAX_TOPIC_BYTES

export const topicFilterArg = () =>
  v.pipe(
    v.string(),
    v.title('form.field.topic'),
    v.minLength(1, 'err.topicRequired'),
    v.check(fitsTopicLength, 'err.topicLength'),
    v.check(isTopicFilter, 'err.topicFilter'),
  )
/** A topic to publish to: no wildcards. */
export const topicNameArg = () =>
  v.pipe(
    v.string(),
    v.title('form.field.topic'),
    v.minLength(1, 'err.topicRequired'),
    v.check(fitsTopicLength, 'err.topicLength'),
    v.check(isTopicName, 'err.topicWildcard'),
  )
export const subscriptionOptionArgs = () => ({
  qos: qosArg(),
  nl: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.nl')), false),
  rap: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.rap')), false),
  rh: v.optional(v.pipe(v.picklist([0, 1, 2], 'err.oneOf'), v.title('form.field.rh')), 0),
})

export const completeClientId: Completer = (api, query, signal) => api.clients.suggest(query, signal)
export const completeTopic: Completer = (api, query, signal) => api.topics.suggest(query, signal)

/** Usernames of clients whose username contains the query (EMQX's like_username). */
export const completeUsername: Completer = async (api, query, signal) => {
  const page = await api.clients.list({ like_username: query.trim(), page: 1, limit: 50 }, signal)
  return [...new Set(page.data.map((c) => c.username).filter((u): u is string => typeof u === 'string' && u !== ''))].slice(0, 10)
}

/** Source addresses of clients whose address contains the query (EMQX's like_ip_address). */
export const completePeerhost: Completer = async (api, query, signal) => {
  const page = await api.clients.list({ like_ip_address: query.trim(), page: 1, limit: 50 }, signal)
  return [...new Set(page.data.map((c) => c.ip_address).filter((ip): ip is string => typeof ip === 'string' && ip !== ''))].slice(0, 10)
}

/** The topic filters the client named in the other arguments is subscribed to (unsubscribe offers only those). */
export const completeClientTopic: Completer = async (api, query, signal, args) => {
  const clientid = args?.clientid?.trim()
  if (!clientid) return completeTopic(api, query, signal)
  const subscriptions = await api.clients.subscriptions(clientid, signal)
  return subscriptions.map((s) => s.topic).filter((topic) => topic.includes(query.trim())).slice(0, 10)
}

/** Disconnects a client and clears its session (SPEC 4: a client can be kicked out). */
export const kickClient = defineCommand({
  id: 'client.kick',
  title: 'cmd.client.kick',
  group: 'cmdGroup.clients',
  changes: ['clients', 'subscriptions', 'topics'],
  args: v.object({ clientid: clientid() }),
  positional: ['clientid'],
  danger: true,
  aliases: ['kick', 'disconnect', '踢出'],
  complete: { clientid: completeClientId },
  describe: ({ clientid }) => ({ key: 'cmd.client.kickDescribe', values: { clientid } }),
  run: (ctx, { clientid }) => ctx.api.clients.kick(clientid),
  // Selected rows go in one request (POST /clients/kickout/bulk); a client that was not there fails its row.
  runMany: async (ctx, rows) => {
    const failed = await ctx.api.clients.kickMany(rows.map((row) => row.clientid))
    return rows.map((row): void | Error => failed.get(row.clientid))
  },
})

/** Subscribes a connected client on its behalf, as if it had sent SUBSCRIBE. */
export const subscribeClient = defineCommand({
  id: 'client.subscribe',
  title: 'cmd.client.subscribe',
  group: 'cmdGroup.clients',
  changes: ['clients', 'subscriptions', 'topics'],
  args: v.object({ clientid: clientid(), topic: topicFilterArg(), ...subscriptionOptionArgs() }),
  positional: ['clientid', 'topic'],
  aliases: ['subscribe', 'sub', '订阅'],
  complete: { clientid: completeClientId, topic: completeTopic },
  suggestOnly: ['topic'],
  run: (ctx, { clientid, topic, qos, nl, rap, rh }) =>
    ctx.api.clients.subscribe(clientid, { topic, qos, nl: nl ? 1 : 0, rap: rap ? 1 : 0, rh }),
})

export const unsubscribeClient = defineCommand({
  id: 'client.unsubscribe',
  title: 'cmd.client.unsubscribe',
  group: 'cmdGroup.clients',
  changes: ['clients', 'subscriptions', 'topics'],
  args: v.object({ clientid: clientid(), topic: required('form.field.topic') }),
  positional: ['clientid', 'topic'],
  danger: true,
  aliases: ['unsubscribe', 'unsub', '取消订阅'],
  complete: { clientid: completeClientId, topic: completeClientTopic },
  describe: ({ clientid, topic }) => ({ key: 'cmd.client.unsubscribeDescribe', values: { clientid, topic } }),
  run: (ctx, { clientid, topic }) => ctx.api.clients.unsubscribe(clientid, topic),
})

/** The clients with EMQX's filters (`clients.list conn_state=connected`), one page as a table. */
export const listClients = defineRead({
  id: 'clients.list',
  title: 'cmd.clients.list',
  group: 'cmdGroup.clients',
  aliases: ['clients', 'ls clients', '客户端列表'],
  args: v.object({
    conn_state: choiceFilter('conn_state', ['connected', 'idle', 'disconnected']),
    like_clientid: textFilter('like_clientid'),
    username: textFilter('username'),
    like_username: textFilter('like_username'),
    ip_address: textFilter('ip_address'),
    like_ip_address: textFilter('like_ip_address'),
    proto_ver: choiceFilter('proto_ver', [3, 4, 5]),
    clean_start: booleanFilter('clean_start'),
    node: textFilter('node'),
    ...pageArgs(),
  }),
  complete: { like_clientid: completeClientId, username: completeUsername, like_username: completeUsername, ip_address: completePeerhost },
  suggestOnly: ['like_clientid', 'like_username'],
  run: (ctx, args) => ctx.api.clients.list(givenArgs(args)),
  table: pagedTable<Client>([
    ['clientid', (c) => c.clientid],
    ['username', (c) => c.username],
    ['address', (c) => (c.ip_address ? `${c.ip_address}:${c.port ?? ''}` : '')],
    ['state', (c) => (c.connected ? 'connected' : 'disconnected')],
    ['proto', (c) => (c.proto_ver !== undefined ? `${c.proto_name ?? 'MQTT'} ${c.proto_ver}` : '')],
    ['keepalive', (c) => c.keepalive],
    ['subs', (c) => c.subscriptions_cnt],
    ['inflight', (c) => c.inflight_cnt],
    ['mqueue', (c) => c.mqueue_len],
    ['connected_at', (c) => shortTime(c.connected_at)],
    ['node', (c) => c.node],
  ]),
})

/** Subscriptions across the cluster with `GET /subscriptions`' filters (`subscriptions.list topic=t/#`). */
export const listSubscriptions = defineRead({
  id: 'subscriptions.list',
  title: 'cmd.subscriptions.list',
  group: 'cmdGroup.clients',
  aliases: ['subscriptions', '订阅列表'],
  args: v.object({
    clientid: textFilter('clientid'),
    topic: textFilter('topic'),
    match_topic: textFilter('match_topic'),
    qos: choiceFilter('qos', [0, 1, 2]),
    share_group: textFilter('share_group'),
    node: textFilter('node'),
    ...pageArgs(),
  }),
  complete: { clientid: completeClientId, topic: completeTopic },
  suggestOnly: ['topic'],
  run: (ctx, args) => ctx.api.subscriptions.list(givenArgs(args)),
  table: pagedTable<Subscription>([
    ['clientid', (s) => s.clientid],
    ['topic', (s) => s.topic],
    ['qos', (s) => s.qos],
    ['nl', (s) => s.nl],
    ['rap', (s) => s.rap],
    ['rh', (s) => s.rh],
    ['share_group', (s) => s.share_group],
    ['node', (s) => s.node],
  ]),
})

/** The routing table: topics subscribed to anywhere in the cluster. */
export const listTopics = defineRead({
  id: 'topics.list',
  title: 'cmd.topics.list',
  group: 'cmdGroup.clients',
  aliases: ['topics', 'routes', '主题列表'],
  args: v.object({ topic: textFilter('topic'), node: textFilter('node'), ...pageArgs() }),
  complete: { topic: completeTopic },
  run: (ctx, args) => ctx.api.topics.list(givenArgs(args)),
  table: pagedTable<Topic>([
    ['topic', (t) => t.topic],
    ['node', (t) => t.node],
  ]),
})

export const clientCommands = [listSubscriptions, listTopics, listClients, kickClient, subscribeClient, unsubscribeClient]
