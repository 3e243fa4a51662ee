// Auto-subscribe (/mqtt/auto_subscribe): topics every connecting client gets, with placeholders.
import { afterEach, describe, expect, it } from 'vitest'
import { collect, serverPerSuite, waitFor } from './support/server.ts'

const s = serverPerSuite()

afterEach(async () => {
  await s.api.request('PUT', '/mqtt/auto_subscribe', [])
})

describe('auto-subscribe', () => {
  it('subscribes each client at connect, with ${clientid}, ${username} and ${host} filled in', async () => {
    const { api, t } = s
    const topics = [
      { topic: 'c/${clientid}', qos: 1 },
      { topic: 'u/${username}/#', qos: 2, nl: 1, rap: 1, rh: 1 },
      { topic: 'h/${host}', qos: 0 },
    ]
    const put = await api.request('PUT', '/mqtt/auto_subscribe', topics)
    expect(put.status).toBe(200)
    const expected = [
      { topic: 'c/${clientid}', qos: 1, nl: 0, rap: 0, rh: 0 },
      { topic: 'u/${username}/#', qos: 2, nl: 1, rap: 1, rh: 1 },
      { topic: 'h/${host}', qos: 0, nl: 0, rap: 0, rh: 0 },
    ]
    expect(put.body).toEqual(expected)
    expect((await api.get('/mqtt/auto_subscribe')).body).toEqual(expected)

    const client = await t.connect({ clientId: 'auto-1', username: 'bob', protocolVersion: 5 })
    const got = collect(client)
    const subscriptions = await waitFor(async () => {
      const body = (await api.get('/clients/auto-1/subscriptions')).body
      return body.length === 3 ? body : undefined
    }, 'three auto subscriptions')
    const byTopic = Object.fromEntries(subscriptions.map((x: { topic: string }) => [x.topic, x]))
    expect(byTopic['c/auto-1']).toMatchObject({ qos: 1, nl: 0, rap: 0, rh: 0 })
    expect(byTopic['u/bob/#']).toMatchObject({ qos: 2, nl: 1, rap: 1, rh: 1 })
    expect(byTopic['h/127.0.0.1']).toMatchObject({ qos: 0 })

    const pub = await t.connect({ clientId: 'auto-pub' })
    await pub.publishAsync('c/auto-1', 'direct', { qos: 1 })
    await pub.publishAsync('u/bob/x', 'user', { qos: 1 })
    await waitFor(() => got.length >= 2, 'messages on the auto subscriptions')
    expect(got.map((m) => [m.topic, m.payload, m.qos]).sort()).toEqual([
      ['c/auto-1', 'direct', 1],
      ['u/bob/x', 'user', 1],
    ])
  })

  it('skips a topic whose ${username} the client did not give', async () => {
    const { api, t } = s
    await api.request('PUT', '/mqtt/auto_subscribe', [{ topic: 'u/${username}' }, { topic: 'all' }])
    await t.connect({ clientId: 'anon' })
    const subscriptions = await waitFor(async () => {
      const body = (await api.get('/clients/anon/subscriptions')).body
      return body.length > 0 ? body : undefined
    }, 'the auto subscription')
    expect(subscriptions.map((x: { topic: string }) => x.topic)).toEqual(['all'])
  })

  it('gives a new auto subscription its retained messages', async () => {
    const { api, t } = s
    const pub = await t.connect({ clientId: 'ret-pub' })
    await pub.publishAsync('welcome', 'hello', { qos: 1, retain: true })
    await api.request('PUT', '/mqtt/auto_subscribe', [{ topic: 'welcome', qos: 1 }])
    const got: Array<{ topic: string; payload: string; retain: boolean }> = []
    const sub = await t.connect({ clientId: 'ret-sub' }, (client) => client.on('message', (topic, payload, packet) => got.push({ topic, payload: payload.toString(), retain: packet.retain })))
    await waitFor(() => got.length >= 1, 'the retained message')
    // Once, not again as a DUP when the session resumes after CONNACK.
    await sub.subscribeAsync('marker')
    await pub.publishAsync('marker', 'm', { qos: 1 })
    await waitFor(() => got.some((m) => m.topic === 'marker'), 'the marker')
    expect(got).toEqual([
      { topic: 'welcome', payload: 'hello', retain: true },
      { topic: 'marker', payload: 'm', retain: false },
    ])
    await pub.publishAsync('welcome', '', { qos: 1, retain: true })
  })

  it('refuses bad topics with 400 (more than 20 with 409) and keeps what it had', async () => {
    const { api, t } = s
    await api.request('PUT', '/mqtt/auto_subscribe', [{ topic: 'kept' }])
    for (const body of [[{ topic: '' }], [{ topic: 'a', qos: 3 }], [{ topic: 'a', nl: 2 }], [{ qos: 1 }], { topic: 'a' }]) {
      const response = await api.request('PUT', '/mqtt/auto_subscribe', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
    const over = await api.request('PUT', '/mqtt/auto_subscribe', Array.from({ length: 21 }, (_, i) => ({ topic: `t/${i}` })))
    expect(over.status).toBe(409)
    expect(over.body.code).toBe('EXCEED_LIMIT')
    expect((await api.request('PUT', '/mqtt/auto_subscribe', Array.from({ length: 20 }, (_, i) => ({ topic: `t/${i}` })))).status).toBe(200)
    await api.request('PUT', '/mqtt/auto_subscribe', [{ topic: 'kept' }])
    expect((await api.get('/mqtt/auto_subscribe')).body).toEqual([{ topic: 'kept', qos: 0, nl: 0, rap: 0, rh: 0 }])
    await t.connect({ clientId: 'kept-check' })
    await waitFor(async () => (await api.get('/clients/kept-check/subscriptions')).body.length === 1, 'the kept auto subscription')
  })
})
