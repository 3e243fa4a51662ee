// Alarms (/alarms) raised and cleared by the embedded broker's own checks: a connection high
// watermark crossed by real mqtt.js clients, system memory above a configured watermark, the
// history, and the alarm.clear command.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { consoleApi, runCommand } from './support/commands.ts'
import { endClients, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'

type AlarmRow = { node: string; name: string; message: string; details: Record<string, unknown>; duration: number; activate_at: string; deactivate_at?: string }

async function alarms(api: Api, activated: boolean): Promise<AlarmRow[]> {
  const response = await api.get(`/alarms?activated=${activated}`)
  expect(response.status).toBe(200)
  return response.body.data
}

describe('alarms from the connection high watermark', () => {
  let t: TestServer
  let api: Api

  beforeAll(async () => {
    // Checked every 50 ms; more than 2 live connections raise the alarm. No memory check here.
    t = await startTestServer({ config: { monitoring: { alarms: { checkMs: 50, connectionHighWatermark: 2, sysmemHighWatermark: undefined } } } })
    api = await t.login()
  })
  afterEach(async () => {
    await endClients()
  })
  afterAll(async () => {
    await t.close()
  })

  it('raises an alarm when connections pass the watermark and moves it to the history when they drop back', async () => {
    expect(await alarms(api, true)).toEqual([])
    const clients = [await t.connect({ clientId: 'al-1' }), await t.connect({ clientId: 'al-2' })]
    const third = await t.connect({ clientId: 'al-3' })

    const [raised] = await waitFor(async () => {
      const list = await alarms(api, true)
      return list.length > 0 && list
    }, 'an activated alarm')
    expect(raised).toMatchObject({
      node: 'emqx@127.0.0.1',
      name: 'too_many_connections',
      details: { connections: 3, high_watermark: 2 },
      message: '3 connections, more than the high watermark 2',
    })
    expect(raised.deactivate_at).toBeUndefined()
    expect(raised.activate_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}([+-]\d{2}:\d{2}|Z)$/)
    expect(raised.duration).toBeGreaterThanOrEqual(0)
    // The default list is the activated one.
    expect((await api.get('/alarms')).body).toMatchObject({ data: [{ name: 'too_many_connections' }], meta: { page: 1, limit: 100, count: 1, hasnext: false } })

    await third.endAsync()
    const [cleared] = await waitFor(async () => {
      const list = await alarms(api, false)
      return list.length > 0 && list
    }, 'the alarm in the history')
    expect(await alarms(api, true)).toEqual([])
    expect(cleared).toMatchObject({ name: 'too_many_connections', activate_at: raised.activate_at, details: { connections: 3, high_watermark: 2 } })
    expect(cleared.duration).toBe(Date.parse(cleared.deactivate_at!) - Date.parse(cleared.activate_at))
    for (const client of clients) await client.endAsync()
  })

  it('clears the history with alarm.clear and keeps activated alarms', async () => {
    // One alarm in the history, then a new activation of the same alarm.
    const first = [await t.connect({ clientId: 'ac-1' }), await t.connect({ clientId: 'ac-2' }), await t.connect({ clientId: 'ac-3' })]
    await waitFor(async () => (await alarms(api, true)).length === 1, 'activated')
    await first[2].endAsync()
    await waitFor(async () => (await alarms(api, true)).length === 0, 'deactivated')
    await t.connect({ clientId: 'ac-4' })
    await waitFor(async () => (await alarms(api, true)).length === 1, 'activated again')
    expect((await alarms(api, false)).length).toBeGreaterThan(0)

    const console = await consoleApi(t)
    await runCommand(console, 'alarm.clear')
    expect(await alarms(api, false)).toEqual([])
    expect((await alarms(api, true)).map((a) => a.name)).toEqual(['too_many_connections'])
    // DELETE /alarms answers 204 with no body.
    expect(await api.delete('/alarms')).toEqual({ status: 204, body: undefined })
  })

  it('pages the lists and refuses a bad activated value', async () => {
    expect((await api.get('/alarms?activated=false&page=2&limit=1')).body.meta).toMatchObject({ page: 2, limit: 1 })
    const bad = await api.get('/alarms?activated=maybe')
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('BAD_REQUEST')
  })
})

describe('alarms from system memory', () => {
  it('raises high_system_memory_usage above the watermark and moves it to the history on restart', async () => {
    // A watermark of 0%: any memory in use is above it.
    const first = await startTestServer({ config: { monitoring: { alarms: { checkMs: 50, sysmemHighWatermark: 0 } } } })
    const firstApi = await first.login()
    const [raised] = await waitFor(async () => {
      const list = await alarms(firstApi, true)
      return list.length > 0 && list
    }, 'the memory alarm')
    expect(raised.name).toBe('high_system_memory_usage')
    expect(raised.message).toMatch(/^\d+\.\d{2}% mem usage$/)
    expect(raised.details.high_watermark).toBe(0)
    expect(raised.details.usage).toBeGreaterThan(0)
    await first.close({ keepData: true })

    // As EMQX does at start, alarms left activated go to the history.
    const second = await startTestServer({ dataDir: first.dataDir, config: { monitoring: { alarms: { sysmemHighWatermark: undefined } } } })
    try {
      const secondApi = await second.login()
      expect(await alarms(secondApi, true)).toEqual([])
      const history = await alarms(secondApi, false)
      expect(history.map((a) => a.name)).toEqual(['high_system_memory_usage'])
      expect(history[0].activate_at).toBe(raised.activate_at)
      expect(history[0].deactivate_at).toBeDefined()
    } finally {
      await second.close()
    }
  })
})
