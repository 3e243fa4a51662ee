// POST /publish and /publish/bulk, checked by what real mqtt.js subscribers receive.
import { describe, expect, it } from 'vitest'
import { serverPerSuite, waitFor } from './support/server.ts'

const s = serverPerSuite()

type Got = { topic: string; payload: Buffer; qos: number; retain: boolean; properties: Record<string, unknown> | undefined }

async function subscriber(clientId: string, filter: string): Promise<Got[]> {
  const got: Got[] = []
  const client = await s.t.connect({ clientId, protocolVersion: 5 })
  client.on('message', (topic, payload, packet) => got.push({ topic, payload, qos: packet.qos, retain: packet.retain, properties: packet.properties as Record<string, unknown> | undefined }))
  await client.subscribeAsync(filter, { qos: 2 })
  return got
}

describe('POST /publish', () => {
  it('publishes to subscribers and answers 200 with the message id', async () => {
    const got = await subscriber('pub-sub', 'http/#')
    const response = await s.api.post('/publish', { topic: 'http/a', payload: 'hello', qos: 1 })
    expect(response.status).toBe(200)
    expect(Object.keys(response.body)).toEqual(['id'])
    expect(response.body.id).toMatch(/^[0-9a-f]{32}$/)
    await waitFor(() => got.length === 1, 'the message')
    expect(got[0]).toMatchObject({ topic: 'http/a', qos: 1, retain: false })
    expect(got[0].payload.toString()).toBe('hello')
  })

  it('decodes base64 payloads and forwards the MQTT 5 properties', async () => {
    const got = await subscriber('props-sub', 'props/#')
    const response = await s.api.post('/publish', {
      topic: 'props/t',
      payload: Buffer.from([0, 255, 1]).toString('base64'),
      payload_encoding: 'base64',
      qos: 2,
      properties: {
        payload_format_indicator: 0,
        message_expiry_interval: 60,
        response_topic: 'reply/here',
        correlation_data: 'corr-1',
        user_properties: { a: '1', b: '2' },
        content_type: 'application/octet-stream',
      },
    })
    expect(response.status).toBe(200)
    await waitFor(() => got.length === 1, 'the message')
    expect(got[0].payload).toEqual(Buffer.from([0, 255, 1]))
    expect(got[0].qos).toBe(2)
    const p = got[0].properties!
    expect(p.responseTopic).toBe('reply/here')
    expect(Buffer.from(p.correlationData as Buffer).toString()).toBe('corr-1')
    expect(p.userProperties).toEqual({ a: '1', b: '2' })
    expect(p.contentType).toBe('application/octet-stream')
    expect(p.messageExpiryInterval).toBeLessThanOrEqual(60)
  })

  it('answers 202 with reason_code 16 when nobody is subscribed, and still retains a retained message', async () => {
    const response = await s.api.post('/publish', { topic: 'nobody/here', payload: 'x', retain: true })
    expect(response.status).toBe(202)
    expect(response.body).toEqual({ reason_code: 16, message: 'no_matching_subscribers' })
    const retained = await s.api.get(`/mqtt/retainer/message/${encodeURIComponent('nobody/here')}`)
    expect(retained.status).toBe(200)
    expect(retained.body.from_clientid).toBe('http_api')
    await s.api.delete(`/mqtt/retainer/message/${encodeURIComponent('nobody/here')}`)
  })

  it('answers bad requests with 400 and publishes nothing', async () => {
    const got = await subscriber('bad-sub', '#')
    const bad: Array<[unknown, number | undefined]> = [
      [{ topic: 'a/#', payload: 'x' }, 144],
      [{ topic: 'a/+/b', payload: 'x' }, 144],
      [{ topic: 'a', payload: '***', payload_encoding: 'base64' }, 131],
      [{ topic: 'a', payload: 'x', payload_encoding: 'hex' }, undefined],
      [{ topic: 'a', payload: 'x', qos: 3 }, undefined],
      [{ payload: 'x' }, undefined],
      [{ topic: '', payload: 'x' }, undefined],
      [{ topic: 'a', payload: 'x', properties: { message_expiry_interval: -1 } }, undefined],
      [{ topic: 'a', payload: 'x', properties: { user_properties: { a: 1 } } }, undefined],
    ]
    for (const [body, reasonCode] of bad) {
      const response = await s.api.post('/publish', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
      expect(typeof response.body.message).toBe('string')
      if (reasonCode !== undefined) expect(response.body.reason_code).toBe(reasonCode)
    }
    // Larger than max_packet_size: refused as EMQX does (151, since 0x95 is no PUBACK code).
    expect((await s.api.request('PUT', '/configs/mqtt', { max_packet_size: '1KB' })).status).toBe(200)
    try {
      const big = await s.api.post('/publish', { topic: 'big', payload: 'x'.repeat(1025) })
      expect(big.status).toBe(400)
      expect(big.body).toMatchObject({ code: 'BAD_REQUEST', reason_code: 151, message: 'packet_too_large' })
    } finally {
      await s.api.request('PUT', '/configs/mqtt', { max_packet_size: '1MB' })
    }
    // A marker shows everything before it was handled: only the marker arrives.
    await s.api.post('/publish', { topic: 'marker', payload: 'm' })
    await waitFor(() => got.length === 1, 'the marker')
    expect(got.map((m) => m.topic)).toEqual(['marker'])
  })
})

describe('POST /publish/bulk', () => {
  it('publishes every message and answers 200 with one id each', async () => {
    const got = await subscriber('bulk-sub', 'bulk/#')
    const response = await s.api.post('/publish/bulk', [
      { topic: 'bulk/1', payload: 'one' },
      { topic: 'bulk/2', payload: 'dHdv', payload_encoding: 'base64', qos: 1 },
    ])
    expect(response.status).toBe(200)
    expect(response.body).toHaveLength(2)
    for (const item of response.body) expect(item.id).toMatch(/^[0-9a-f]{32}$/)
    await waitFor(() => got.length === 2, 'both messages')
    expect(got.map((m) => [m.topic, m.payload.toString()])).toEqual([
      ['bulk/1', 'one'],
      ['bulk/2', 'two'],
    ])
  })

  it('answers 202 when a message had no subscribers, with its reason code in its place', async () => {
    const got = await subscriber('part-sub', 'part/#')
    const response = await s.api.post('/publish/bulk', [
      { topic: 'part/1', payload: 'x' },
      { topic: 'elsewhere/1', payload: 'y' },
    ])
    expect(response.status).toBe(202)
    expect(response.body[0].id).toMatch(/^[0-9a-f]{32}$/)
    expect(response.body[1]).toEqual({ reason_code: 16, message: 'no_matching_subscribers' })
    await waitFor(() => got.length === 1, 'the delivered message')
  })

  it('refuses the whole batch when one message is bad, or the batch is empty', async () => {
    const got = await subscriber('all-sub', '#')
    for (const body of [[{ topic: 'ok', payload: 'x' }, { topic: 'bad/#', payload: 'y' }], [{ topic: 'ok', payload: 'x' }, { qos: 1 }], [], { topic: 'ok' }]) {
      const response = await s.api.post('/publish/bulk', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
    await s.api.post('/publish', { topic: 'marker', payload: 'm' })
    await waitFor(() => got.length === 1, 'the marker')
    expect(got.map((m) => m.topic)).toEqual(['marker'])
  })
})
