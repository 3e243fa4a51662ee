// topicRewrite.add and topicRewrite.edit with a kind (SPEC: prefix, suffix): the rule is written as
// EMQX 5.8 stores it (`^(.*)$` and `<prefix>/$1` or `$1/<suffix>`), recognised again from it, and
// rewrites what real mqtt.js clients publish.
import { afterEach, expect, it } from 'vitest'
import { affixRule, rewriteKindOf } from '../commands/rewriteKind.ts'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'
import { nextMessage } from './support/server.ts'

const suite = consoleSuite()
afterEach(async () => {
  await suite.api.topicRewrite.replace([])
})

const run = (id: string, raw: Record<string, unknown> = {}) => runCommand(suite.api, id, raw)

it('recognises a prefix or suffix rule from its regular expression and destination, and nothing else', () => {
  expect(rewriteKindOf(affixRule('prefix', 'tenant/a'))).toEqual({ kind: 'prefix', affix: 'tenant/a' })
  expect(rewriteKindOf(affixRule('suffix', 'v2'))).toEqual({ kind: 'suffix', affix: 'v2' })
  expect(rewriteKindOf({ re: '^(.*)$', dest_topic: '$1/$1' })).toEqual({ kind: 'regex' })
  expect(rewriteKindOf({ re: '^(.*)$', dest_topic: '/$1' })).toEqual({ kind: 'regex' })
  expect(rewriteKindOf({ re: '^x/(.+)$', dest_topic: 'p/$1' })).toEqual({ kind: 'regex' })
})

it('checks the kind and what it adds before anything is sent', async () => {
  const { api } = suite
  expect(invalidArgs('topicRewrite.add', { source_topic: 'a/#', kind: 'disable' })).toEqual(['kind:err.oneOf'])
  expect(invalidArgs('topicRewrite.add', { source_topic: 'a/#', kind: 'prefix', affix: 'p/' })).toEqual(['affix:err.rewriteAffix'])
  expect(invalidArgs('topicRewrite.add', { source_topic: 'a/#', kind: 'prefix', affix: 'p$1' })).toEqual(['affix:err.rewriteAffix'])
  await expect(run('topicRewrite.add', { source_topic: 'a/#', kind: 'prefix' })).rejects.toMatchObject({ text: { key: 'cmd.topicRewrite.affixRequired' } })
  await expect(run('topicRewrite.add', { source_topic: 'a/#', re: '^a$' })).rejects.toMatchObject({ text: { key: 'cmd.topicRewrite.reRequired' } })
  expect(await api.topicRewrite.list()).toEqual([])
})

it('a prefix rule rewrites a publish to prefix/topic; edited to a suffix, to topic/suffix', async () => {
  const { api, ts } = suite
  await run('topicRewrite.add', { action: 'publish', source_topic: 'sensor/#', kind: 'prefix', affix: 'site1' })
  expect(await api.topicRewrite.list()).toEqual([{ action: 'publish', source_topic: 'sensor/#', re: '^(.*)$', dest_topic: 'site1/$1' }])
  const listener = await ts.connect({ clientId: 'kind-listener' })
  await listener.subscribeAsync('#', { qos: 1 })
  const publisher = await ts.connect({ clientId: 'kind-publisher' })
  const published = async (topic: string) => {
    const message = nextMessage(listener)
    await publisher.publishAsync(topic, 'p', { qos: 1 })
    return (await message).topic
  }
  expect(await published('sensor/1/temp')).toBe('site1/sensor/1/temp')
  expect(await published('other/1')).toBe('other/1')

  // The edit form arrives with re and dest_topic filled in: the kind's own fill wins.
  await run('topicRewrite.edit', { index: '1', action: 'publish', source_topic: 'sensor/#', kind: 'suffix', affix: 'raw', re: '^(.*)$', dest_topic: 'site1/$1' })
  expect(await published('sensor/2')).toBe('sensor/2/raw')
  expect(rewriteKindOf((await api.topicRewrite.list())[0])).toEqual({ kind: 'suffix', affix: 'raw' })
})
