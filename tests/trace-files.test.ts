// A trace's file on disk: bounded in size, kept and written on after a restart, and a broker with
// no running trace has no tracer at all (a publish pays one field check).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { TraceFile } from '../server/trace/file.ts'
import { connectMqtt, endClients, startTestServer, waitFor, type TestServer } from './support/server.ts'

const dirs: string[] = []
const servers: TestServer[] = []
afterEach(async () => {
  await endClients()
  for (const server of servers.splice(0)) await server.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'trace-files-'))
  dirs.push(dir)
  return dir
}

describe('trace files', () => {
  it('stop growing at their bound (a halt log), whole lines only', () => {
    const path = join(tempDir(), 'bounded.log')
    const file = new TraceFile(path, 100)
    for (let i = 0; i < 50; i++) file.append(`line ${String(i).padStart(4, '0')}\n`)
    file.close()
    const text = readFileSync(path, 'utf8')
    expect(statSync(path).size).toBeLessThanOrEqual(100)
    expect(text).toBe(Array.from({ length: 10 }, (_, i) => `line ${String(i).padStart(4, '0')}\n`).join(''))
  })

  it('a running trace goes on after a restart, appending to its file', async () => {
    const dataDir = tempDir()
    const first = await startTestServer({ dataDir })
    const api = await first.login()
    expect((await api.post('/trace', { name: 'survivor', type: 'clientid', clientid: 'restart-1', end_at: new Date(Date.now() + 600_000).toISOString() })).status).toBe(200)
    const before = await first.connect({ clientId: 'restart-1' })
    await before.publishAsync('rs/t', 'before-restart', { qos: 1 })
    await waitFor(async () => (await api.get('/trace/survivor/log')).body.items.includes('before-restart'), 'first line')
    await endClients()
    await first.close({ keepData: true })

    const second = await startTestServer({ dataDir })
    servers.push(second)
    const api2 = await second.login()
    const [trace] = (await api2.get('/trace')).body
    expect(trace).toMatchObject({ name: 'survivor', status: 'running' })
    const after = await connectMqtt(second.mqttUrl, { clientId: 'restart-1' })
    await after.publishAsync('rs/t', 'after-restart', { qos: 1 })
    const text = await waitFor(async () => {
      const page = await api2.get('/trace/survivor/log?bytes=100000')
      return page.body.items.includes('after-restart') && (page.body.items as string)
    }, 'second line')
    expect(text.indexOf('before-restart')).toBeLessThan(text.indexOf('after-restart'))
  })

  it('with no trace running the broker has no tracer; one trace on one client among many costs little', async () => {
    const server = await startTestServer({ dataDir: tempDir() })
    servers.push(server)
    const api = await server.login()
    const broker = server.server.broker!
    expect(broker.tracer).toBeUndefined()
    const subscriber = await server.connect({ clientId: 'overhead-sub' })
    await subscriber.subscribeAsync('oh/#')
    const publisher = await server.connect({ clientId: 'overhead-pub' })
    const count = 5000
    const run = async () => {
      let received = 0
      const done = new Promise<void>((resolve) => {
        const onMessage = () => {
          if (++received === count) {
            subscriber.off('message', onMessage)
            resolve()
          }
        }
        subscriber.on('message', onMessage)
      })
      const started = performance.now()
      for (let i = 0; i < count; i++) publisher.publish('oh/t', 'payload')
      await done
      return performance.now() - started
    }
    await run()
    const untraced = await run()
    expect((await api.post('/trace', { name: 'elsewhere', type: 'clientid', clientid: 'someone-else' })).status).toBe(200)
    expect(broker.tracer).toBeDefined()
    const tracedOther = await run()
    expect((await api.post('/trace', { name: 'everything', type: 'topic', topic: '#' })).status).toBe(200)
    const tracedAll = await run()
    console.log(`QoS 0, ${count} messages: no trace ${untraced.toFixed(0)} ms, a trace on another client ${tracedOther.toFixed(0)} ms, a trace on # ${tracedAll.toFixed(0)} ms`)
    expect((await api.request('DELETE', '/trace')).status).toBe(204)
    expect(broker.tracer).toBeUndefined()
  })
})
