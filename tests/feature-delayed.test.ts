// Delayed publish (`$delayed/{seconds}/{topic}`, /mqtt/delayed), seen by real mqtt.js clients.
import { afterEach, describe, expect, it } from 'vitest'
import { collect, serverPerSuite, startTestServer, waitFor } from './support/server.ts'

const s = serverPerSuite()

afterEach(async () => {
  await s.api.request('PUT', '/mqtt/delayed', { enable: true, max_delayed_messages: 0 })
})

async function delayedList() {
  return (await s.api.get('/mqtt/delayed/messages')).body as { data: Array<Record<string, any>>; meta: Record<string, any> }
}

async function metric(name: string): Promise<number> {
  return (await s.api.get('/metrics?aggregate=true')).body[name]
}

describe('delayed publish', () => {
  it('holds a $delayed message, lists it, and publishes it to its topic when due', async () => {
    const { api, t } = s
    const sub = await t.connect({ clientId: 'd-sub' })
    await sub.subscribeAsync('later/#', { qos: 1 })
    const got = collect(sub)
    const pub = await t.connect({ clientId: 'd-pub', username: 'dan' })
    await pub.publishAsync('$delayed/2/later/a', 'soon', { qos: 1 })

    const list = await delayedList()
    expect(list.meta).toMatchObject({ page: 1, limit: 100, count: 1, hasnext: false })
    const row = list.data[0]
    expect(row).toMatchObject({ node: 'emqx@127.0.0.1', topic: 'later/a', qos: 1, delayed_interval: 2, from_clientid: 'd-pub', from_username: 'dan' })
    expect(row.msgid).toMatch(/^[0-9a-f]{32}$/)
    expect(Date.parse(row.expected_at) - Date.parse(row.publish_at)).toBe(2000)
    expect(row.delayed_remaining).toBeLessThanOrEqual(2)
    expect((await api.get('/stats?aggregate=true')).body['delayed.count']).toBe(1)

    const one = await api.get(`/mqtt/delayed/messages/${row.node}/${row.msgid}`)
    expect(one.status).toBe(200)
    expect(Buffer.from(one.body.payload, 'base64').toString()).toBe('soon')
    expect(got).toEqual([])

    await waitFor(() => got.length === 1, 'the delayed message')
    expect(got[0]).toMatchObject({ topic: 'later/a', payload: 'soon', qos: 1 })
    expect((await delayedList()).meta.count).toBe(0)
    expect((await api.get(`/mqtt/delayed/messages/${row.node}/${row.msgid}`)).status).toBe(404)
  })

  it('deletes a delayed message so it is never published, with EMQX errors for bad ids', async () => {
    const { api, t } = s
    const sub = await t.connect({ clientId: 'del-sub' })
    await sub.subscribeAsync('gone/#', { qos: 1 })
    const got = collect(sub)
    const pub = await t.connect({ clientId: 'del-pub' })
    await pub.publishAsync('$delayed/60/gone/x', 'never', { qos: 1 })
    const { msgid, node } = (await delayedList()).data[0]
    expect((await api.delete(`/mqtt/delayed/messages/${node}/${msgid}`)).status).toBe(204)
    const again = await api.delete(`/mqtt/delayed/messages/${node}/${msgid}`)
    expect(again.status).toBe(404)
    expect(again.body.code).toBe('MESSAGE_ID_NOT_FOUND')
    const badId = await api.get(`/mqtt/delayed/messages/${node}/not-an-id`)
    expect(badId.status).toBe(400)
    expect(badId.body.code).toBe('MESSAGE_ID_SCHEMA_ERROR')
    const badNode = await api.get(`/mqtt/delayed/messages/emqx@elsewhere/${msgid}`)
    expect(badNode.status).toBe(400)
    expect(badNode.body.code).toBe('INVALID_NODE')

    // The delivery timer keeps running without it: a later delayed message still comes out, alone,
    // and nothing is left waiting (a 60 s delay, so a slow machine cannot publish it before the delete).
    await pub.publishAsync('$delayed/1/gone/marker', 'marker', { qos: 1 })
    await waitFor(() => got.length >= 1, 'the marker')
    expect(got.map((m) => m.payload)).toEqual(['marker'])
    expect((await delayedList()).meta.count).toBe(0)
  })

  it('deletes the delayed messages of one topic', async () => {
    const { api, t } = s
    const pub = await t.connect({ clientId: 'topic-pub' })
    await pub.publishAsync('$delayed/60/by/topic', '1', { qos: 1 })
    await pub.publishAsync('$delayed/60/by/topic', '2', { qos: 1 })
    await pub.publishAsync('$delayed/60/other', '3', { qos: 1 })
    expect((await delayedList()).meta.count).toBe(3)
    expect((await api.delete(`/mqtt/delayed/messages/${encodeURIComponent('by/topic')}`)).status).toBe(204)
    expect((await delayedList()).data.map((m) => m.topic)).toEqual(['other'])
    const none = await api.delete(`/mqtt/delayed/messages/${encodeURIComponent('by/topic')}`)
    expect(none.status).toBe(404)
    expect((await api.delete(`/mqtt/delayed/messages/${encodeURIComponent('by/#')}`)).status).toBe(400)
    const { node, msgid } = (await delayedList()).data[0]
    await api.delete(`/mqtt/delayed/messages/${node}/${msgid}`)
  })

  it('pages the list of delayed messages, soonest first', async () => {
    const { api, t } = s
    const pub = await t.connect({ clientId: 'page-pub' })
    for (const seconds of [50, 30, 40]) await pub.publishAsync(`$delayed/${seconds}/p/${seconds}`, 'x', { qos: 1 })
    const first = (await api.get('/mqtt/delayed/messages?page=1&limit=2')).body
    expect(first.data.map((m: { topic: string }) => m.topic)).toEqual(['p/30', 'p/40'])
    expect(first.meta).toEqual({ page: 1, limit: 2, count: 3, hasnext: true })
    const second = (await api.get('/mqtt/delayed/messages?page=2&limit=2')).body
    expect(second.data.map((m: { topic: string }) => m.topic)).toEqual(['p/50'])
    expect(second.meta.hasnext).toBe(false)
    expect((await api.get('/mqtt/delayed/messages?limit=0')).status).toBe(400)
    for (const m of [...first.data, ...second.data]) await api.delete(`/mqtt/delayed/messages/${m.node}/${m.msgid}`)
  })

  it('refuses new delayed messages when max_delayed_messages is reached, and counts the drop', async () => {
    const { api, t } = s
    const put = await api.request('PUT', '/mqtt/delayed', { max_delayed_messages: 1 })
    expect(put.body).toEqual({ enable: true, max_delayed_messages: 1 })
    const pub = await t.connect({ clientId: 'full-pub' })
    await pub.publishAsync('$delayed/60/full/1', 'kept', { qos: 1 })
    const dropped = await metric('messages.dropped')
    await pub.publishAsync('$delayed/60/full/2', 'refused', { qos: 1 })
    const list = await delayedList()
    expect(list.data.map((m) => m.topic)).toEqual(['full/1'])
    expect(await metric('messages.dropped')).toBe(dropped + 1)
    await api.delete(`/mqtt/delayed/messages/${list.data[0].node}/${list.data[0].msgid}`)
  })

  it('routes $delayed topics as they are while disabled, and drops invalid delayed topics', async () => {
    const { api, t } = s
    const sub = await t.connect({ clientId: 'off-sub' })
    await sub.subscribeAsync('$delayed/5/off', { qos: 1 })
    await sub.subscribeAsync('off', { qos: 1 })
    const got = collect(sub)
    const pub = await t.connect({ clientId: 'off-pub' })
    // While enabled, a delayed topic without a number (or a topic) is dropped.
    await pub.publishAsync('$delayed/soon/off', 'bad', { qos: 1 })
    expect((await delayedList()).meta.count).toBe(0)

    expect((await api.request('PUT', '/mqtt/delayed', { enable: false })).body.enable).toBe(false)
    await pub.publishAsync('$delayed/5/off', 'plain', { qos: 1 })
    await waitFor(() => got.length === 1, 'the message on the literal $delayed topic')
    expect(got[0]).toMatchObject({ topic: '$delayed/5/off', payload: 'plain' })
    expect((await delayedList()).meta.count).toBe(0)
  })

  it('drops every stored delayed message when turned off, as EMQX does', async () => {
    const { api, t } = s
    const sub = await t.connect({ clientId: 'drop-sub' })
    await sub.subscribeAsync('dropped/#', { qos: 1 })
    const got = collect(sub)
    const pub = await t.connect({ clientId: 'drop-pub' })
    await pub.publishAsync('$delayed/60/dropped/old', 'old', { qos: 1 })
    expect((await delayedList()).meta.count).toBe(1)
    await api.request('PUT', '/mqtt/delayed', { enable: false })
    expect((await delayedList()).meta.count).toBe(0)
    await api.request('PUT', '/mqtt/delayed', { enable: true })
    await pub.publishAsync('$delayed/1/dropped/marker', 'marker', { qos: 1 })
    await waitFor(() => got.length >= 1, 'the marker')
    expect(got.map((m) => m.payload)).toEqual(['marker'])
  })

  it('does not publish a delayed message whose publisher is banned by the time it is due', async () => {
    const { api, t } = s
    const sub = await t.connect({ clientId: 'bd-sub' })
    await sub.subscribeAsync('bd/#', { qos: 1 })
    const got = collect(sub)
    const banned = await t.connect({ clientId: 'bd-pub' })
    // Due before the marker, and late enough that the ban is in place first even on a slow machine.
    await banned.publishAsync('$delayed/2/bd/from-banned', 'no', { qos: 1 })
    await api.post('/banned', { as: 'clientid', who: 'bd-pub' })
    const other = await t.connect({ clientId: 'bd-other' })
    await other.publishAsync('$delayed/3/bd/marker', 'marker', { qos: 1 })
    try {
      await waitFor(() => got.length >= 1, 'the marker')
      expect(got.map((m) => m.payload)).toEqual(['marker'])
    } finally {
      await api.delete('/banned/clientid/bd-pub')
    }
  })

  it('answers bad settings with 400 and keeps the old ones', async () => {
    const { api } = s
    for (const body of [{ max_delayed_messages: -1 }, { max_delayed_messages: 1.5 }, { enable: 'yes' }]) {
      const response = await api.request('PUT', '/mqtt/delayed', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
    expect((await api.get('/mqtt/delayed')).body).toEqual({ enable: true, max_delayed_messages: 0 })
  })

  it('answers 200 with the message id to POST /publish of a $delayed topic', async () => {
    const { api } = s
    const response = await api.post('/publish', { topic: '$delayed/60/http/t', payload: 'x' })
    expect(response.status).toBe(200)
    expect(response.body.id).toMatch(/^[0-9a-f]{32}$/)
    const list = await delayedList()
    expect(list.data).toMatchObject([{ topic: 'http/t', msgid: response.body.id }])
    await api.delete(`/mqtt/delayed/messages/${list.data[0].node}/${response.body.id}`)
  })
})

describe('delayed messages across a restart', () => {
  it('keeps delayed messages in SQLite and publishes them after a restart when due', async () => {
    const first = await startTestServer()
    const pub = await first.connect({ clientId: 'restart-pub', protocolVersion: 5 })
    await pub.publishAsync('$delayed/1/restart/soon', 'one', { qos: 1 })
    await pub.publishAsync('$delayed/2/restart/later', 'two', { qos: 1, properties: { userProperties: { k: 'v' } } })
    await pub.endAsync()
    await first.close({ keepData: true })

    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const api = await second.login()
      const listed = (await api.get('/mqtt/delayed/messages')).body
      expect(listed.data.map((m: { topic: string }) => m.topic).sort()).toEqual(expect.arrayContaining(['restart/later']))
      const got: Array<{ topic: string; payload: string; props: unknown }> = []
      const sub = await second.connect({ clientId: 'restart-sub', protocolVersion: 5 })
      sub.on('message', (topic, payload, packet) => got.push({ topic, payload: payload.toString(), props: packet.properties?.userProperties }))
      await sub.subscribeAsync('restart/#', { qos: 1 })
      await waitFor(() => got.some((m) => m.topic === 'restart/later'), 'the delayed message after the restart')
      expect(got.find((m) => m.topic === 'restart/later')).toEqual({ topic: 'restart/later', payload: 'two', props: { k: 'v' } })
      expect((await api.get('/mqtt/delayed/messages')).body.meta.count).toBe(0)
      await sub.endAsync()
    } finally {
      await second.close()
    }
  })
})
