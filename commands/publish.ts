// Publishing a message from the console (`/publish`), as if a client had sent it.
import * as v from 'valibot'
import { defineCommand, type Completer } from './define.ts'
import { keyValuesArg } from './args.ts'
import { payloadEncodings, publishPropertiesSchema } from '../src/api/publish.ts'
import { isTopicName, qosArg, topicNameArg } from './clients.ts'

function isBase64(text: string): boolean {
  return /^[A-Za-z0-9+/]*={0,2}$/.test(text) && text.length % 4 === 0
}

/**
 * Topics a message can be published to: the subscribed topics that are names (a filter with `+` or
 * `#` would be refused, MQTT 0x90) and the topics of retained messages, which are always names.
 */
export const completeTopicName: Completer = async (api, query, signal) => {
  const [subscribed, retained] = await Promise.all([api.topics.suggest(query, signal), api.retainer.suggest(query, signal).catch(() => [])])
  return [...new Set([...subscribed, ...retained])].filter(isTopicName).slice(0, 10)
}

export const publishMessage = defineCommand({
  id: 'message.publish',
  title: 'cmd.message.publish',
  group: 'cmdGroup.messages',
  changes: ['retainer', 'delayed', 'topicMetrics'],
  args: v.object({
    topic: topicNameArg(),
    payload: v.optional(v.pipe(v.string(), v.title('form.field.payload')), ''),
    qos: qosArg(),
    retain: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.retain')), false),
    payload_encoding: v.optional(v.pipe(v.picklist(payloadEncodings, 'err.oneOf'), v.title('form.field.payloadEncoding')), 'plain'),
    properties: v.optional(
      v.pipe(publishPropertiesSchema, v.title('form.field.properties'), v.description('form.hint.properties')),
    ),
    // MQTT 5 user properties as their own key-value list; merged over properties.user_properties.
    user_properties: v.optional(keyValuesArg('form.field.userProperties')),
  }),
  positional: ['topic', 'payload'],
  aliases: ['publish', 'pub', 'send', '发布'],
  complete: { topic: completeTopicName },
  suggestOnly: ['topic'],
  run: (ctx, { topic, payload, qos, retain, payload_encoding, properties: given, user_properties }) => {
    if (payload_encoding === 'base64' && !isBase64(payload)) throw new Error('payload is not valid base64')
    const properties = user_properties
      ? { ...given, user_properties: { ...given?.user_properties, ...user_properties } }
      : given
    return ctx.api.publish.one({ topic, payload, qos, retain, payload_encoding, ...(properties ? { properties } : {}) })
  },
})

export const publishCommands = [publishMessage]
