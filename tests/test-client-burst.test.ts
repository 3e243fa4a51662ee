// Bursts from the WebSocket test client (issue 5): testclient.publish with a count sends every
// message through the embedded broker, the counters stay exact whatever the kept window holds,
// the terminal accounts for every message, and a burst cut short says how far it got.
import { describe, expect, it } from 'vitest'
import type { ManagerOptions, TestClientManager } from '../src/testclient/manager.ts'
import { feedTerminal } from '../src/features/websocket/terminalFeed.ts'
import { createTerminalLog } from '../src/state/terminalLog.ts'
import { serverPerSuite, waitFor } from './support/server.ts'
import { t, testClientManager, testClientRunner } from './support/testClient.ts'

let manager: TestClientManager | undefined
const s = serverPerSuite(() => manager?.dispose())

async function subscribed(options: Partial<ManagerOptions> = {}) {
  manager = testClientManager(s.t, options)
  const connection = manager.resolve()
  await connection.connect()
  const runner = await testClientRunner(s.t, manager)
  await runner.ok('testclient.subscribe', { topic: 't/#', qos: '0' })
  return { connection, runner, manager }
}

describe('a publish burst', () => {
  it('sends 500 messages with count=500 interval=0s: all 500 come back and the counters are exact', async () => {
    const { connection, runner, manager } = await subscribed()
    const log = createTerminalLog(5000)
    const stopFeed = feedTerminal(manager, t, log)
    expect(await runner.ok('testclient.publish', { topic: 't/burst', payload: 'x', count: '500', interval: '0s' })).toEqual({
      topic: 't/burst',
      count: 500,
    })
    expect(runner.log.last()?.message).toBe('500 message(s) published to t/burst')
    await waitFor(() => connection.store.stats().received === 500, '500 messages back')
    expect(connection.store.stats()).toEqual({ received: 500, published: 500, droppedFromView: 0 })
    const kept = connection.store.messages()
    expect(kept).toHaveLength(1000)
    expect(kept.filter((m) => m.direction === 'in').every((m) => m.topic === 't/burst' && Buffer.from(m.payload).toString() === 'x')).toBe(true)

    // Every message is a terminal line or counted in a frame's 'not shown' line.
    await waitFor(() => {
      const entries = log.entries()
      const lines = entries.filter((e) => e.stream).length
      const skipped = entries.filter((e) => !e.stream).reduce((sum, e) => sum + Number(/\d+/.exec(e.message ?? '')?.[0] ?? 0), 0)
      return lines + skipped === 1000
    }, 'the terminal to account for 1000 messages')
    expect(log.entries().filter((e) => e.stream).every((e) => e.source === 'ws.default')).toBe(true)
    stopFeed()
  })

  it('keeps only the newest 100 with keptMessages 100 and counts the rest as dropped from view', async () => {
    const { connection, runner } = await subscribed({ keptMessages: 100 })
    await runner.ok('testclient.publish', { topic: 't/burst', payload: 'y', count: '500', interval: '0s', qos: '1' })
    await waitFor(() => connection.store.stats().received === 500, '500 messages back')
    expect(connection.store.stats()).toEqual({ received: 500, published: 500, droppedFromView: 900 })
    const kept = connection.store.messages()
    expect(kept).toHaveLength(100)
    // The newest ones: ids run up to the thousandth message without a gap.
    expect(kept.map((m) => m.id)).toEqual(Array.from({ length: 100 }, (_, i) => 901 + i))
  })

  it('shrinks the kept window with testclient.keep: the counters stay exact, the rest counts as dropped', async () => {
    const { connection, runner } = await subscribed()
    await runner.ok('testclient.publish', { topic: 't/keep', payload: 'z', count: '150' })
    await waitFor(() => connection.store.stats().received === 150, '150 messages back')
    await runner.ok('testclient.keep', { count: '100' })
    expect(connection.store.capacity).toBe(100)
    expect(connection.store.messages()).toHaveLength(100)
    expect(connection.store.stats()).toEqual({ received: 150, published: 150, droppedFromView: 200 })
    expect(await runner.failure('testclient.keep', { count: '99' })).toMatch(/^count: /)
  })

  it('sends a paced burst (interval=20ms) in full and in order', async () => {
    const { connection, runner } = await subscribed()
    await runner.ok('testclient.publish', { topic: 't/paced', payload: 'p', count: '3', interval: '20ms', qos: '2' })
    await waitFor(() => connection.store.stats().received === 3, '3 messages back')
    expect(connection.store.stats()).toEqual({ received: 3, published: 3, droppedFromView: 0 })
    const published = connection.store.messages().filter((m) => m.direction === 'out')
    expect(published.map((m) => [m.topic, m.qos])).toEqual([
      ['t/paced', 2],
      ['t/paced', 2],
      ['t/paced', 2],
    ])
  })

  it('says how many were sent when the connection goes away during a burst', async () => {
    const { connection, runner } = await subscribed()
    // The first frame of published messages disconnects: the burst cannot finish.
    const stop = connection.store.subscribe((batch) => {
      if (batch.length === 0) return
      stop()
      void connection.disconnect()
    })
    const message = await runner.failure('testclient.publish', { topic: 't/cut', payload: 'c', count: '10000', qos: '1' })
    const sent = connection.store.stats().published
    expect(sent).toBeGreaterThan(0)
    expect(sent).toBeLessThan(10000)
    expect(message).toBe(`${sent} of 10000 messages published, then: Client not connected`)
    await waitFor(() => connection.state === 'disconnected', 'the disconnect')
  })
})
