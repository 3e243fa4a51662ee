// Alarms (/alarms) raised and cleared by the embedded broker's own checks: a connection high
// watermark crossed by real mqtt.js clients, system memory above a configured watermark, the
// history, and the alarm.clear command.
import { totalmem } from 'node:os'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { consoleApi, invalidArgs, runCommand } from './support/commands.ts'
import { collect, endClients, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'

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
    // Checked every 50 ms; more than 2 live connections raise the alarm.
    t = await startTestServer({ config: { monitoring: { alarms: { connectionCheckMs: 50, connectionHighWatermark: 2 } } } })
    api = await t.login()
    // Only the connection alarm in this suite: no memory check, and CPU checked once an hour.
    expect((await api.request('PUT', '/configs/sysmon', { os: { mem_check_interval: 'disabled', cpu_check_interval: '1h' } })).status).toBe(200)
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
    // EMQX's default `publish` action: alarms go to $SYS/brokers/<node>/alarms/activate|deactivate.
    await clients[0].subscribeAsync('$SYS/brokers/+/alarms/#')
    const published = collect(clients[0])
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

    await waitFor(() => published.length === 2, 'the activate and deactivate messages')
    expect(published.map((m) => m.topic)).toEqual(['$SYS/brokers/emqx@127.0.0.1/alarms/activate', '$SYS/brokers/emqx@127.0.0.1/alarms/deactivate'])
    const [activated, deactivated] = published.map((m) => JSON.parse(m.payload))
    expect(activated).toMatchObject({ name: 'too_many_connections', activated: true, deactivate_at: 'infinity', details: { connections: 3, high_watermark: 2 } })
    expect(activated.activate_at).toBe(Date.parse(raised.activate_at) * 1000)
    expect(deactivated).toMatchObject({ name: 'too_many_connections', activated: false, activate_at: activated.activate_at })
    expect(deactivated.deactivate_at).toBe(Date.parse(cleared.deactivate_at!) * 1000)
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

  it('deactivates an alarm by hand (alarm.deactivate, force_deactivate), which the next check raises again while the condition holds', async () => {
    await api.delete('/alarms')
    const held = [await t.connect({ clientId: 'fd-1' }), await t.connect({ clientId: 'fd-2' }), await t.connect({ clientId: 'fd-3' })]
    await waitFor(async () => (await alarms(api, true)).length === 1, 'activated')
    const console = await consoleApi(t)
    await runCommand(console, 'alarm.deactivate', { name: 'too_many_connections' })
    const [cleared] = await waitFor(async () => {
      const history = await alarms(api, false)
      return history.length > 0 && history
    }, 'the alarm in the history')
    expect(cleared).toMatchObject({ name: 'too_many_connections' })
    expect(cleared.deactivate_at).toBeDefined()
    // Still three connections: the check raises it again, as EMQX's would.
    await waitFor(async () => (await alarms(api, true)).length === 1, 'raised again')
    expect(held).toHaveLength(3)

    expect(await api.post('/alarms/force_deactivate', { name: 'no_such_alarm' })).toEqual({
      status: 400,
      body: { code: 'NOT_FOUND', message: 'Alarm not found or already deactivated' },
    })
    expect(await api.post('/alarms/force_deactivate', {})).toEqual({ status: 400, body: { code: 'INVALID_PARAMETER', message: 'name is required' } })
    expect(await api.post('/alarms/force_deactivate', { name: '' })).toEqual({ status: 400, body: { code: 'INVALID_PARAMETER', message: 'name is required' } })
  })

  it('keeps the history within size_limit and follows the alarm settings changed by command', async () => {
    expect((await api.get('/configs/alarm')).body).toEqual({ actions: ['log', 'publish'], size_limit: 1000, validity_period: '24h' })
    const console = await consoleApi(t)
    // Two more activations and deactivations, so the history holds several entries.
    for (const id of ['sl-a', 'sl-b']) {
      const crowd = [await t.connect({ clientId: `${id}-1` }), await t.connect({ clientId: `${id}-2` }), await t.connect({ clientId: `${id}-3` })]
      await waitFor(async () => (await alarms(api, true)).length === 1, 'activated')
      for (const client of crowd) await client.endAsync()
      await waitFor(async () => (await alarms(api, true)).length === 0, 'deactivated')
    }
    expect((await alarms(api, false)).length).toBeGreaterThan(1)

    const updated = await runCommand(console, 'alarm.update', { size_limit: '1', actions: 'log' })
    expect(updated).toEqual({ actions: ['log'], size_limit: 1, validity_period: '24h' })
    expect(await alarms(api, false)).toHaveLength(1)
    expect(invalidArgs('alarm.update', { actions: 'mail' })).toEqual(['actions:err.alarmActions'])
    for (const body of [{ size_limit: 0 }, { size_limit: 3001 }, { actions: ['mail'] }, { validity_period: 'forever' }]) {
      const response = await api.request('PUT', '/configs/alarm', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
    expect(await runCommand(console, 'alarm.update', { actions: 'log,publish', size_limit: '1000' })).toMatchObject({ actions: ['log', 'publish'], size_limit: 1000 })
  })

  it('pages the lists and refuses a bad activated value', async () => {
    expect((await api.get('/alarms?activated=false&page=2&limit=1')).body.meta).toMatchObject({ page: 2, limit: 1 })
    const bad = await api.get('/alarms?activated=maybe')
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('BAD_REQUEST')
  })
})

describe('alarms from the system monitor (sysmon.os)', () => {
  it('raises high_system_memory_usage above the watermark and clears it when the watermark is raised', async () => {
    const t = await startTestServer()
    try {
      const api = await t.login()
      expect((await api.get('/configs/sysmon')).body).toEqual({
        os: {
          cpu_check_interval: '60s',
          cpu_high_watermark: '80%',
          cpu_low_watermark: '60%',
          mem_check_interval: '60s',
          sysmem_high_watermark: '70%',
          procmem_high_watermark: '5%',
        },
      })
      // A watermark of 0%: any memory in use is above it.
      const put = await api.request('PUT', '/configs/sysmon', { os: { mem_check_interval: '50ms', sysmem_high_watermark: '0%', cpu_check_interval: '1h' } })
      expect(put.body.os).toMatchObject({ mem_check_interval: '50ms', sysmem_high_watermark: '0%', cpu_high_watermark: '80%' })
      const [raised] = await waitFor(async () => {
        const list = await alarms(api, true)
        return list.length > 0 && list
      }, 'the memory alarm')
      expect(raised.name).toBe('high_system_memory_usage')
      expect(raised.message).toMatch(/^\d+\.\d{2}% mem usage$/)
      expect(raised.details.high_watermark).toBe(0)
      expect(raised.details.usage).toBeGreaterThan(0)

      await api.request('PUT', '/configs/sysmon', { os: { sysmem_high_watermark: '100%' } })
      const history = await waitFor(async () => {
        const list = await alarms(api, false)
        return list.length > 0 && list
      }, 'the memory alarm in the history')
      expect(history[0]).toMatchObject({ name: 'high_system_memory_usage', activate_at: raised.activate_at })
      expect(await alarms(api, true)).toEqual([])
    } finally {
      await t.close()
    }
  })

  it('raises high_process_memory_usage above procmem_high_watermark and clears it when the watermark is raised', async () => {
    const t = await startTestServer()
    try {
      const api = await t.login()
      // Only the process memory check can fire: system memory at 100%, CPU once an hour.
      const put = await api.request('PUT', '/configs/sysmon', {
        os: { mem_check_interval: '50ms', procmem_high_watermark: '0%', sysmem_high_watermark: '100%', cpu_check_interval: '1h' },
      })
      expect(put.status).toBe(200)
      expect(put.body.os).toMatchObject({ procmem_high_watermark: '0%', mem_check_interval: '50ms' })
      expect((await api.get('/configs/sysmon')).body.os.procmem_high_watermark).toBe('0%')
      const [raised] = await waitFor(async () => {
        const list = await alarms(api, true)
        return list.length > 0 && list
      }, 'the process memory alarm')
      expect(raised).toMatchObject({
        name: 'high_process_memory_usage',
        message: 'Process memory usage is higher than 0%',
        details: { pid: String(process.pid), high_watermark: 0 },
      })
      // The server runs in this process: its resident memory over the machine's was measured.
      const share = (process.memoryUsage.rss() / totalmem()) * 100
      expect(raised.details.usage).toBeGreaterThan(share / 4)
      expect(raised.details.usage).toBeLessThan(share * 4)

      await api.request('PUT', '/configs/sysmon', { os: { procmem_high_watermark: '100%' } })
      const history = await waitFor(async () => {
        const list = await alarms(api, false)
        return list.length > 0 && list
      }, 'the process memory alarm in the history')
      expect(history[0]).toMatchObject({ name: 'high_process_memory_usage', activate_at: raised.activate_at })
      expect(history[0].deactivate_at).toBeDefined()
      expect(await alarms(api, true)).toEqual([])
    } finally {
      await t.close()
    }
  })

  it('raises high_cpu_usage above the CPU high watermark', async () => {
    const t = await startTestServer()
    try {
      const api = await t.login()
      await api.request('PUT', '/configs/sysmon', { os: { mem_check_interval: 'disabled', cpu_check_interval: '50ms', cpu_high_watermark: '0%', cpu_low_watermark: '0%' } })
      const [raised] = await waitFor(async () => {
        const list = await alarms(api, true)
        return list.length > 0 && list
      }, 'the CPU alarm')
      expect(raised.name).toBe('high_cpu_usage')
      expect(raised.message).toMatch(/^\d+\.\d{2}% cpu usage$/)
      expect(raised.details).toMatchObject({ high_watermark: 0, low_watermark: 0 })
    } finally {
      await t.close()
    }
  })

  it('refuses what the embedded broker does not monitor and values that are no percentages or durations', async () => {
    const t = await startTestServer()
    try {
      const api = await t.login()
      for (const body of [{ vm: { process_high_watermark: '80%' } }, { os: { swap_high_watermark: '5%' } }, { os: { sysmem_high_watermark: '170%' } }, { os: { procmem_high_watermark: '5 percent' } }, { os: { cpu_check_interval: 'soon' } }, { os: { mem_check_interval: '0s' } }]) {
        const response = await api.request('PUT', '/configs/sysmon', body)
        expect(response.status, JSON.stringify(body)).toBe(400)
        expect(response.body.code).toBe('BAD_REQUEST')
      }
      expect((await api.get('/configs/sysmon')).body.os.sysmem_high_watermark).toBe('70%')

      const console = await consoleApi(t)
      expect(invalidArgs('sysmon.update', { sysmem_high_watermark: '120%' })).toEqual(['sysmem_high_watermark:err.percent'])
      const updated = (await runCommand(console, 'sysmon.update', { sysmem_high_watermark: '85', mem_check_interval: 'disabled' })) as { os: Record<string, string> }
      expect(updated.os).toMatchObject({ sysmem_high_watermark: '85%', mem_check_interval: 'disabled', cpu_high_watermark: '80%' })
      const procmem = (await runCommand(console, 'sysmon.update', { procmem_high_watermark: '12.5' })) as { os: Record<string, string> }
      expect(procmem.os).toMatchObject({ procmem_high_watermark: '12.5%', sysmem_high_watermark: '85%' })
    } finally {
      await t.close()
    }
  })
})

describe('alarms across a restart', () => {
  it('moves alarms left activated to the history and keeps the sysmon settings', async () => {
    const first = await startTestServer()
    const firstApi = await first.login()
    await firstApi.request('PUT', '/configs/sysmon', { os: { mem_check_interval: '50ms', sysmem_high_watermark: '0%', cpu_check_interval: '1h' } })
    const [raised] = await waitFor(async () => {
      const list = await alarms(firstApi, true)
      return list.length > 0 && list
    }, 'the memory alarm')
    await first.close({ keepData: true })

    // As EMQX does at start, alarms left activated go to the history.
    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const secondApi = await second.login()
      const history = await alarms(secondApi, false)
      expect(history.map((a) => a.name)).toEqual(['high_system_memory_usage'])
      expect(history[0].activate_at).toBe(raised.activate_at)
      expect(history[0].deactivate_at).toBeDefined()
      expect((await secondApi.get('/configs/sysmon')).body.os).toMatchObject({ mem_check_interval: '50ms', sysmem_high_watermark: '0%' })
      // The stored watermark applies again: a new activation.
      const [again] = await waitFor(async () => {
        const list = await alarms(secondApi, true)
        return list.length > 0 && list
      }, 'the memory alarm again')
      expect(again.activate_at).not.toBe(raised.activate_at)
    } finally {
      await second.close()
    }
  })
})
