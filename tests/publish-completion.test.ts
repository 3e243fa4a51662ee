// message.publish suggests only topics it can publish to: names, never filters with + or #.
import { describe, expect, it } from 'vitest'
import { getCommand, validateArgs } from '../commands/registry.ts'
import { consoleApi } from './support/commands.ts'
import { serverPerSuite } from './support/server.ts'

const s = serverPerSuite()

describe('message.publish topic suggestions', () => {
  it('offers subscribed topic names and retained topics, leaving out wildcard filters it would refuse', async () => {
    const api = await consoleApi(s.t)
    const subscriber = await s.t.connect({ clientId: 'completion-sub' })
    await subscriber.subscribeAsync(['pc/+/temp', 'pc/#', 'pc/room/temp'], { qos: 0 })
    const publisher = await s.t.connect({ clientId: 'completion-pub' })
    await publisher.publishAsync('pc/retained/1', 'kept', { retain: true, qos: 1 })

    const publish = getCommand('message.publish')!
    const complete = publish.complete!.topic!
    const suggested = await complete(api, 'pc', new AbortController().signal)
    expect(suggested.sort()).toEqual(['pc/retained/1', 'pc/room/temp'])
    // Every suggestion passes the command's own check.
    for (const topic of suggested) expect(validateArgs(publish, { topic }).ok).toBe(true)
    expect(validateArgs(publish, { topic: 'pc/+/temp' }).ok).toBe(false)
  })
})
