// `sub topic=… qos=…`: a private connection of the test client's engine subscribes (in the CLI on the
// WebSocket listener of the API's host) and every message a real mqtt.js client publishes is a line,
// control characters written out, until the stream is stopped.
import { describe, expect, it } from 'vitest'
import { lineWriterOutput } from '../commands/liveOutput.ts'
import { planScript } from '../commands/script/plan.ts'
import { messageLine, type SubResult } from '../commands/sub.ts'
import { text } from '../cli/output.ts'
import { consoleSuite } from './support/commands.ts'
import { waitFor } from './support/server.ts'

describe('sub', () => {
  const suite = consoleSuite()

  it('prints each message on the subscribed filter until stopped, then disconnects', async () => {
    const plan = planScript('sub plant/# 1')
    if (!plan.ok) throw new Error(JSON.stringify(plan.errors))
    const [step] = plan.steps
    expect(step.args).toEqual({ topic: 'plant/#', qos: 1 })
    const controller = new AbortController()
    const lines: string[] = []
    const live = lineWriterOutput({ write: (_source, line) => lines.push(line), translate: text, brokerHost: '127.0.0.1', signal: controller.signal })
    const done = step.command.run({ api: suite.api, live }, step.args as never) as Promise<SubResult>
    await waitFor(() => lines.some((l) => l.startsWith('subscribed to plant/#')), 'subscribed')
    const subscriber = (await suite.api.clients.list({ like_clientid: 'console_sub_' })).data[0]
    expect(subscriber?.clientid).toMatch(/^console_sub_/)

    const publisher = await suite.ts.connect({ clientId: 'plant-pub' })
    await publisher.publishAsync('plant/1/temp', '21.5', { qos: 1 })
    await publisher.publishAsync('plant/2/temp', 'evil\x1b[2J', { qos: 0 })
    await publisher.publishAsync('other/topic', 'not for us', { qos: 0 })
    await waitFor(() => lines.length >= 3, 'two messages')
    controller.abort()
    expect(await done).toEqual({ received: 2 })
    expect(lines.slice(1)).toEqual(['plant/1/temp q1 21.5 (4 B)', 'plant/2/temp q0 evil\\e[2J (8 B)'])
    await waitFor(async () => (await suite.api.clients.list({ like_clientid: 'console_sub_' })).data.length === 0, 'its connection gone')
  })

  it('writes a retained flag, cuts long payloads and says their size', () => {
    const payload = new TextEncoder().encode('x'.repeat(500))
    expect(messageLine({ topic: 't', qos: 2, retain: true, payload })).toBe(`t q2 r ${'x'.repeat(199)}… (500 B)`)
  })

  it('refuses a topic filter that is no filter, before anything runs', () => {
    const plan = planScript('sub a/#/b\nsub t qos=3')
    expect(plan.ok).toBe(false)
    if (!plan.ok) expect(plan.errors.map((e) => `${e.line}:${e.arg}:${e.key}`)).toEqual(['1:topic:err.topicFilter', '2:qos:err.oneOf'])
  })
})
