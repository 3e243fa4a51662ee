// GET /mqtt/retainer/messages lists in one stable order, oldest publish first (then by topic), as
// EMQX 5.8's page_read sorts by message timestamp: the same with a topic filter as without.
import { describe, expect, it } from 'vitest'
import { serverPerSuite, waitFor } from './support/server.ts'

const s = serverPerSuite()

async function topics(query = ''): Promise<string[]> {
  const { body } = await s.api.get(`/mqtt/retainer/messages?limit=1000${query}`)
  return body.data.map((m: { topic: string }) => m.topic).filter((topic: string) => topic.startsWith('order/'))
}

/** Publishes a retained message and waits until it is stored, on a later millisecond than the one before. */
async function retain(client: Awaited<ReturnType<typeof s.t.connect>>, topic: string, payload: string) {
  const start = Date.now()
  while (Date.now() === start) await new Promise((resolve) => setImmediate(resolve))
  await client.publishAsync(topic, payload, { qos: 1, retain: true })
  await waitFor(async () => (await s.api.get(`/mqtt/retainer/message/${encodeURIComponent(topic)}`)).body?.payload === Buffer.from(payload).toString('base64'), topic)
}

describe('the retained message list order', () => {
  it('is oldest publish first, the same with a topic filter, and a republished topic moves to the end', async () => {
    const client = await s.t.connect({ clientId: 'order-publisher' })
    for (const topic of ['order/b', 'order/a', 'order/c/1']) await retain(client, topic, topic)

    expect(await topics()).toEqual(['order/b', 'order/a', 'order/c/1'])
    expect(await topics('&topic=order/%23')).toEqual(['order/b', 'order/a', 'order/c/1'])
    expect(await topics('&topic=order/%2B')).toEqual(['order/b', 'order/a'])
    // Reading again changes nothing.
    expect(await topics()).toEqual(await topics())

    await retain(client, 'order/b', 'again')
    expect(await topics()).toEqual(['order/a', 'order/c/1', 'order/b'])
    expect(await topics('&topic=order/%23')).toEqual(['order/a', 'order/c/1', 'order/b'])
    await s.api.delete('/mqtt/retainer/messages')
  })
})
