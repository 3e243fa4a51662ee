// What every endpoint shares with EMQX 5.8: how request bodies are read, how long a path parameter
// may be, and paging limits. Real server, real mqtt.js clients.
import { describe, expect, it } from 'vitest'
import { serverPerSuite, waitFor } from './support/server.ts'

describe('request bodies', () => {
  const suite = serverPerSuite()
  const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    suite.t.raw(path, { method, headers: { authorization: `Bearer ${suite.api.token}`, ...headers }, body })

  it('accepts content-type: application/json with no body, as curl scripts send it on DELETE', async () => {
    await suite.api.post('/banned', { as: 'clientid', who: 'json-no-body' })
    const response = await send('DELETE', '/banned/clientid/json-no-body', { 'content-type': 'application/json' })
    expect(response.status).toBe(204)
    expect((await send('DELETE', '/banned', { 'content-type': 'application/json' })).status).toBe(204)
  })

  it('answers 415 UNSUPPORTED_MEDIA_TYPE to a POST or PUT whose body is not declared JSON', async () => {
    const refused = { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'content-type:application/json Required' }
    const ban = JSON.stringify({ as: 'clientid', who: 'not-json' })
    const types: Record<string, string>[] = [{ 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, {}]
    for (const headers of types) {
      const response = await send('POST', '/banned', headers, ban)
      expect(response, JSON.stringify(headers)).toEqual({ status: 415, body: refused })
    }
    const put = await send('PUT', '/mqtt/retainer', { 'content-type': 'text/plain' }, JSON.stringify({ max_payload_size: '1MB' }))
    expect(put).toEqual({ status: 415, body: refused })
    // Nothing was created on the way.
    expect((await suite.api.get('/banned')).body.data).toEqual([])
  })

  it('still reads JSON with a charset, and says 400 for JSON that does not parse', async () => {
    const created = await send('POST', '/banned', { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify({ as: 'clientid', who: 'charset' }))
    expect(created.status).toBe(200)
    const broken = await send('POST', '/banned', { 'content-type': 'application/json' }, '{"as":')
    expect(broken.status).toBe(400)
    expect(broken.body.code).toBe('BAD_REQUEST')
    await suite.api.delete('/banned')
  })
})

describe('long path parameters', () => {
  const suite = serverPerSuite()

  it('opens, reads the subscriptions of, and kicks a client whose id is 200 characters', async () => {
    const clientId = `long-${'x'.repeat(195)}`
    expect(clientId).toHaveLength(200)
    const mqtt = await suite.t.connect({ clientId })
    await mqtt.subscribeAsync('long/id/topic', { qos: 1 })
    const path = `/clients/${encodeURIComponent(clientId)}`

    const detail = await suite.api.get(path)
    expect(detail.status).toBe(200)
    expect(detail.body.clientid).toBe(clientId)
    const subscriptions = await suite.api.get(`${path}/subscriptions`)
    expect(subscriptions.status).toBe(200)
    expect(subscriptions.body).toEqual([expect.objectContaining({ topic: 'long/id/topic', clientid: clientId })])

    const closed = new Promise<void>((resolve) => mqtt.once('close', () => resolve()))
    expect((await suite.api.delete(path)).status).toBe(204)
    await closed
    expect((await suite.api.get(path)).status).toBe(404)
  })

  it('opens a client whose id is the full 65535 bytes MQTT allows', async () => {
    const clientId = 'm'.repeat(65535)
    await suite.t.connect({ clientId })
    const detail = await suite.api.get(`/clients/${clientId}`)
    expect(detail.status).toBe(200)
    expect(detail.body.clientid).toHaveLength(65535)
    // Percent-encoded multi-byte characters take three times as many characters in the path.
    const wide = 'é'.repeat(100)
    await suite.t.connect({ clientId: wide })
    expect((await suite.api.get(`/clients/${encodeURIComponent(wide)}`)).body.clientid).toBe(wide)
  })

  it('views and deletes a retained message on a long topic', async () => {
    for (const topic of [`long/${'level/'.repeat(15)}end`, `deep/${'t'.repeat(4000)}`]) {
      const publisher = await suite.t.connect({ clientId: 'long-topic-publisher' })
      await publisher.publishAsync(topic, 'kept', { qos: 1, retain: true })
      await publisher.endAsync()
      const path = `/mqtt/retainer/message/${encodeURIComponent(topic)}`
      const viewed = await waitFor(async () => {
        const response = await suite.api.get(path)
        return response.status === 200 ? response.body : undefined
      }, 'the retained message')
      expect(viewed.topic).toBe(topic)
      expect(Buffer.from(viewed.payload, 'base64').toString()).toBe('kept')
      expect((await suite.api.delete(path)).status).toBe(204)
      expect((await suite.api.get(path)).status).toBe(404)
    }
  })
})

describe('paging', () => {
  const suite = serverPerSuite()
  const PAGED_LISTS = ['/clients', '/subscriptions', '/topics', '/banned', '/alarms', '/mqtt/retainer/messages', '/mqtt/delayed/messages']

  it('pages every list by 100 unless told otherwise, up to 10000 rows a page', async () => {
    for (const path of PAGED_LISTS) {
      const first = await suite.api.get(path)
      expect(first.status, path).toBe(200)
      expect(first.body.meta, path).toMatchObject({ page: 1, limit: 100 })
      expect((await suite.api.get(`${path}?limit=10000`)).body.meta, path).toMatchObject({ limit: 10000 })
    }
  })

  it('refuses a page larger than 10000 rows or smaller than one with 400 BAD_REQUEST', async () => {
    for (const path of PAGED_LISTS) {
      for (const limit of ['10001', '0']) {
        const response = await suite.api.get(`${path}?limit=${limit}`)
        expect(response.status, `${path} limit=${limit}`).toBe(400)
        expect(response.body.code, path).toBe('BAD_REQUEST')
      }
    }
  })
})
