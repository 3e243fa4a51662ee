// Auto-subscribe: topics every client is subscribed to when it connects (${clientid}, ${username}, ${host}).
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { ApiError } from '../contract/api-error.ts'
import { subscriptionOptionArgs } from './clients.ts'

/** The entry as EMQX keeps it: the flags as 0 or 1. */
const entryOf = ({ topic, qos, nl, rap, rh }: { topic: string; qos: 0 | 1 | 2; nl: boolean; rap: boolean; rh: 0 | 1 | 2 }) => ({ topic, qos, nl: nl ? 1 : 0, rap: rap ? 1 : 0, rh })

export const addAutoSubscription = defineCommand({
  id: 'autoSubscribe.add',
  title: 'cmd.autoSubscribe.add',
  group: 'cmdGroup.mqtt',
  changes: ['autoSubscribe'],
  args: v.object({
    topic: v.pipe(v.string(), v.title('form.field.topic'), v.description('form.hint.placeholders'), v.minLength(1, 'err.topicRequired')),
    ...subscriptionOptionArgs(),
  }),
  positional: ['topic'],
  aliases: ['auto subscribe', '代理订阅', '自动订阅'],
  /** Adding a topic already in the list replaces its options. */
  run: async (ctx, args) => {
    const list = await ctx.api.autoSubscribe.list()
    const entry = entryOf(args)
    const { topic } = args
    const index = list.findIndex((t) => t.topic === topic)
    return ctx.api.autoSubscribe.replace(index < 0 ? [...list, entry] : list.map((t, i) => (i === index ? entry : t)))
  },
})

export const removeAutoSubscription = defineCommand({
  id: 'autoSubscribe.remove',
  title: 'cmd.autoSubscribe.remove',
  group: 'cmdGroup.mqtt',
  changes: ['autoSubscribe'],
  args: v.object({ topic: v.pipe(v.string(), v.title('form.field.topic'), v.minLength(1, 'err.topicRequired')) }),
  positional: ['topic'],
  danger: true,
  aliases: ['auto subscribe', '代理订阅', '自动订阅'],
  complete: {
    topic: async (api, query, signal) =>
      (await api.autoSubscribe.list(signal)).map((t) => t.topic).filter((t) => t.includes(query.trim())).slice(0, 10),
  },
  describe: ({ topic }) => ({ key: 'cmd.autoSubscribe.removeDescribe', values: { topic } }),
  run: async (ctx, { topic }) => {
    const list = await ctx.api.autoSubscribe.list()
    const kept = list.filter((t) => t.topic !== topic)
    if (kept.length === list.length) throw new ApiError(404, 'NOT_FOUND', `No auto-subscription for ${topic}`)
    return ctx.api.autoSubscribe.replace(kept)
  },
})

export const editAutoSubscription = defineCommand({
  id: 'autoSubscribe.edit',
  title: 'cmd.autoSubscribe.edit',
  group: 'cmdGroup.mqtt',
  changes: ['autoSubscribe'],
  args: v.object({
    /** 1-based place of the topic in the list. */
    index: v.pipe(v.number('err.number'), v.title('form.field.index'), v.integer('err.integer'), v.minValue(1)),
    topic: v.pipe(v.string(), v.title('form.field.topic'), v.description('form.hint.placeholders'), v.minLength(1, 'err.topicRequired')),
    ...subscriptionOptionArgs(),
  }),
  positional: ['index', 'topic'],
  aliases: ['auto subscribe', '代理订阅', '自动订阅'],
  run: async (ctx, { index, ...args }) => {
    const list = await ctx.api.autoSubscribe.list()
    if (index > list.length) throw new ApiError(404, 'NOT_FOUND', `No auto-subscription ${index}`)
    const entry = entryOf(args)
    return ctx.api.autoSubscribe.replace(list.map((t, i) => (i === index - 1 ? entry : t)))
  },
})

export const autoSubscribeCommands = [addAutoSubscription, editAutoSubscription, removeAutoSubscription]
