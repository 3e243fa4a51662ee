// The WebSocket test client (`/websocket`): connect, subscribe, publish and the rest, as commands,
// so the screen's buttons, the palette and pasted scripts drive the same connections. The
// connections live in the browser tab (ui.testClient), so these commands are browser-only.
import * as v from 'valibot'
import { CommandError, defineCommand, type CommandContext } from './define.ts'
import { durationArg, keyValuesArg, parseDuration } from './args.ts'
import { isTopicName, qosArg, subscriptionOptionArgs, topicFilterArg, topicNameArg } from './clients.ts'
import { requireUi } from './navigation.ts'
import { MAX_UINT32, type ConnectionSettings, type ProtocolVersion } from '../src/testclient/connectionSettings.ts'
import { PAYLOAD_ENCODINGS, encodePayload } from '../src/testclient/payload.ts'
import type { PublishProperties } from '../src/testclient/connection.ts'
import type { TestClientManager } from '../src/testclient/manager.ts'
import { sleep } from './sleep.ts'

const GROUP = 'cmdGroup.testClient'

export const PROTOCOLS = { 'v3.1': 3, 'v3.1.1': 4, v5: 5 } as const satisfies Record<string, ProtocolVersion>
type ProtocolName = keyof typeof PROTOCOLS

async function testClient(ctx: CommandContext): Promise<TestClientManager> {
  const ui = requireUi(ctx)
  if (!ui.testClient) throw new Error('This command needs the browser')
  return ui.testClient()
}

const connectionArg = () => v.optional(v.pipe(v.string(), v.title('form.field.connection'), v.description('form.hint.connection')))
const int = (title: string, min: number, max: number) =>
  v.optional(v.pipe(v.number('err.number'), v.title(title), v.integer('err.integer'), v.minValue(min), v.maxValue(max)))
const bool = (title: string) => v.optional(v.pipe(v.boolean('err.boolean'), v.title(title)))
const text = (title: string) => v.optional(v.pipe(v.string(), v.title(title)))


/** 'never' or whole seconds up to 4294967295. */
function isExpiry(value: string): boolean {
  return value === 'never' || (/^\d+$/.test(value) && Number(value) <= MAX_UINT32)
}

export const testClientConnect = defineCommand({
  id: 'testclient.connect',
  title: 'cmd.testClient.connect',
  group: GROUP,
  changes: ['clients'],
  aliases: ['mqtt connect', 'websocket', '连接'],
  args: v.object({
    connection: connectionArg(),
    host: text('testClient.field.host'),
    port: int('testClient.field.port', 1, 65535),
    path: text('testClient.field.path'),
    tls: bool('testClient.field.tls'),
    clientid: text('testClient.field.clientId'),
    username: text('testClient.field.username'),
    password: text('testClient.field.password'),
    protocol: v.optional(v.pipe(v.picklist(Object.keys(PROTOCOLS) as ProtocolName[], 'err.oneOf'), v.title('testClient.field.protocol'))),
    keepalive: int('testClient.field.keepalive', 0, 65535),
    clean: bool('testClient.field.clean'),
    session_expiry: v.optional(
      v.pipe(v.string(), v.title('testClient.field.sessionExpiry'), v.description('testClient.hint.sessionExpiry'), v.check(isExpiry, 'err.expiry')),
    ),
    reconnect: bool('testClient.field.reconnect'),
  }),
  positional: ['connection'],
  secretArgs: ['password'],
  needsUi: true,
  run: async (ctx, { connection, clientid, protocol, session_expiry, ...rest }) => {
    const manager = await testClient(ctx)
    const target = manager.resolve(connection)
    const patch: Partial<ConnectionSettings> = {}
    for (const [key, value] of Object.entries(rest)) if (value !== undefined) Object.assign(patch, { [key]: value })
    if (clientid !== undefined) patch.clientId = clientid
    if (protocol !== undefined) patch.protocolVersion = PROTOCOLS[protocol]
    if (session_expiry !== undefined) patch.sessionExpiryInterval = session_expiry === 'never' ? 'never' : Number(session_expiry)
    if (Object.keys(patch).length) manager.update(target.name, patch)
    await target.connect()
    return { connection: target.name, clientid: target.snapshot().settings.clientId }
  },
  resultText: ({ connection, clientid }) => ({ key: 'cmd.testClient.connected', values: { connection, clientid } }),
})

export const testClientCancel = defineCommand({
  id: 'testclient.cancel',
  title: 'cmd.testClient.cancel',
  group: GROUP,
  args: v.object({ connection: connectionArg() }),
  positional: ['connection'],
  needsUi: true,
  run: async (ctx, { connection }) => (await testClient(ctx)).resolve(connection).cancel(),
})

export const testClientDisconnect = defineCommand({
  id: 'testclient.disconnect',
  title: 'cmd.testClient.disconnect',
  group: GROUP,
  changes: ['clients', 'subscriptions', 'topics'],
  args: v.object({ connection: connectionArg() }),
  positional: ['connection'],
  needsUi: true,
  run: async (ctx, { connection }) => (await testClient(ctx)).resolve(connection).disconnect(),
})

export const testClientSubscribe = defineCommand({
  id: 'testclient.subscribe',
  title: 'cmd.testClient.subscribe',
  group: GROUP,
  changes: ['clients', 'subscriptions', 'topics'],
  aliases: ['mqtt subscribe', 'sub', '订阅'],
  args: v.object({
    topic: v.optional(topicFilterArg(), 't/#'),
    ...subscriptionOptionArgs(),
    subid: int('testClient.field.subscriptionIdentifier', 1, 268435455),
    connection: connectionArg(),
  }),
  positional: ['topic'],
  needsUi: true,
  run: async (ctx, { connection, subid, ...options }) => {
    const target = (await testClient(ctx)).resolve(connection)
    const subscription = await target.subscribeTopic({ ...options, ...(subid !== undefined ? { subscriptionIdentifier: subid } : {}) })
    return { topic: subscription.topic, granted: subscription.granted }
  },
  resultText: ({ topic, granted }) => ({ key: 'cmd.testClient.subscribed', values: { topic, qos: granted } }),
})

export const testClientUnsubscribe = defineCommand({
  id: 'testclient.unsubscribe',
  title: 'cmd.testClient.unsubscribe',
  group: GROUP,
  changes: ['clients', 'subscriptions', 'topics'],
  args: v.object({ topic: topicFilterArg(), connection: connectionArg() }),
  positional: ['topic'],
  needsUi: true,
  danger: true,
  describe: ({ topic }) => ({ key: 'cmd.testClient.unsubscribeDescribe', values: { topic } }),
  run: async (ctx, { topic, connection }) => (await testClient(ctx)).resolve(connection).unsubscribeTopic(topic),
})

/** The most messages one publish command sends (a burst from a script). */
export const MAX_PUBLISH_COUNT = 1_000_000

export const testClientPublish = defineCommand({
  id: 'testclient.publish',
  title: 'cmd.testClient.publish',
  group: GROUP,
  changes: ['retainer', 'delayed', 'topicMetrics'],
  aliases: ['mqtt publish', 'pub', 'burst', '发布'],
  args: v.object({
    topic: topicNameArg(),
    payload: v.optional(v.pipe(v.string(), v.title('form.field.payload')), ''),
    encoding: v.optional(v.pipe(v.picklist(PAYLOAD_ENCODINGS, 'err.oneOf'), v.title('form.field.payloadEncoding')), 'plaintext'),
    qos: qosArg(),
    retain: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.retain')), false),
    count: v.optional(
      v.pipe(v.number('err.number'), v.title('testClient.field.count'), v.integer('err.integer'), v.minValue(1), v.maxValue(MAX_PUBLISH_COUNT)),
      1,
    ),
    interval: v.optional(durationArg('testClient.field.interval', { description: 'testClient.hint.interval' }), '0s'),
    payload_format_indicator: bool('testClient.field.payloadFormatIndicator'),
    message_expiry_interval: int('testClient.field.messageExpiryInterval', 0, MAX_UINT32),
    content_type: text('testClient.field.contentType'),
    response_topic: v.optional(v.pipe(v.string(), v.title('testClient.field.responseTopic'), v.check(isTopicName, 'err.topicWildcard'))),
    correlation_data: text('testClient.field.correlationData'),
    user_properties: v.optional(keyValuesArg('form.field.userProperties')),
    topic_alias: int('testClient.field.topicAlias', 1, 65535),
    connection: connectionArg(),
  }),
  positional: ['topic', 'payload'],
  needsUi: true,
  suggestOnly: ['topic'],
  run: async (ctx, args) => {
    const encoded = encodePayload(args.payload, args.encoding)
    if (!encoded.ok) throw new CommandError({ key: encoded.error })
    const target = (await testClient(ctx)).resolve(args.connection)
    const properties: PublishProperties = {}
    if (args.payload_format_indicator !== undefined) properties.payloadFormatIndicator = args.payload_format_indicator
    if (args.message_expiry_interval !== undefined) properties.messageExpiryInterval = args.message_expiry_interval
    if (args.content_type) properties.contentType = args.content_type
    if (args.response_topic) properties.responseTopic = args.response_topic
    if (args.correlation_data) properties.correlationData = new TextEncoder().encode(args.correlation_data)
    if (args.user_properties && Object.keys(args.user_properties).length) properties.userProperties = args.user_properties
    if (args.topic_alias !== undefined) properties.topicAlias = args.topic_alias
    const interval = parseDuration(args.interval) ?? 0
    let sent = 0
    try {
      for (; sent < args.count; sent++) {
        if (sent > 0 && interval > 0) await sleep(interval)
        await target.publish({
          topic: args.topic,
          payload: encoded.bytes,
          qos: args.qos,
          retain: args.retain,
          ...(Object.keys(properties).length ? { properties } : {}),
        })
      }
    } catch (error) {
      if (sent === 0 || !(error instanceof CommandError)) throw error
      throw new CommandError({ key: 'cmd.testClient.publishedPart', values: { sent, count: args.count } }, error)
    }
    return { topic: args.topic, count: sent }
  },
  resultText: ({ topic, count }) => ({ key: 'cmd.testClient.published', values: { topic, count } }),
})

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/

export const testClientNew = defineCommand({
  id: 'testclient.new',
  title: 'cmd.testClient.new',
  group: GROUP,
  args: v.object({
    name: v.optional(v.pipe(v.string(), v.title('testClient.field.name'), v.maxLength(32), v.regex(NAME, 'err.connectionName'))),
  }),
  positional: ['name'],
  needsUi: true,
  run: async (ctx, { name }) => ({ connection: (await testClient(ctx)).add(name).name }),
  resultText: ({ connection }) => ({ key: 'cmd.testClient.created', values: { connection } }),
})

export const testClientRemove = defineCommand({
  id: 'testclient.remove',
  title: 'cmd.testClient.remove',
  group: GROUP,
  args: v.object({ connection: v.pipe(v.string(), v.title('form.field.connection'), v.minLength(1, 'err.required')) }),
  positional: ['connection'],
  needsUi: true,
  danger: true,
  describe: ({ connection }) => ({ key: 'cmd.testClient.removeDescribe', values: { connection } }),
  run: async (ctx, { connection }) => (await testClient(ctx)).remove(connection),
})

export const testClientClear = defineCommand({
  id: 'testclient.clear',
  title: 'cmd.testClient.clear',
  group: GROUP,
  args: v.object({ connection: connectionArg() }),
  positional: ['connection'],
  needsUi: true,
  danger: true,
  describe: ({ connection }) => ({ key: 'cmd.testClient.clearDescribe', values: { connection: connection ?? '' } }),
  run: async (ctx, { connection }) => (await testClient(ctx)).resolve(connection).store.clear(),
})

export const testClientPause = defineCommand({
  id: 'testclient.pause',
  title: 'cmd.testClient.pause',
  group: GROUP,
  args: v.object({ connection: connectionArg() }),
  positional: ['connection'],
  needsUi: true,
  run: async (ctx, { connection }) => (await testClient(ctx)).resolve(connection).store.setPaused(true),
})

export const testClientResume = defineCommand({
  id: 'testclient.resume',
  title: 'cmd.testClient.resume',
  group: GROUP,
  args: v.object({ connection: connectionArg() }),
  positional: ['connection'],
  needsUi: true,
  run: async (ctx, { connection }) => (await testClient(ctx)).resolve(connection).store.setPaused(false),
})

export const testClientKeep = defineCommand({
  id: 'testclient.keep',
  title: 'cmd.testClient.keep',
  group: GROUP,
  args: v.object({
    count: v.pipe(v.number('err.number'), v.title('testClient.field.kept'), v.integer('err.integer'), v.minValue(100), v.maxValue(1_000_000)),
  }),
  positional: ['count'],
  needsUi: true,
  run: async (ctx, { count }) => (await testClient(ctx)).setKeptMessages(count),
})

export const testClientCommands = [
  testClientConnect,
  testClientCancel,
  testClientDisconnect,
  testClientSubscribe,
  testClientUnsubscribe,
  testClientPublish,
  testClientNew,
  testClientRemove,
  testClientClear,
  testClientPause,
  testClientResume,
  testClientKeep,
]
