// The WebSocket listener's limits, found while fuzzing over WebSocket: ws buffers a whole message
// before the broker sees a byte of it, so its frame limit must follow max_packet_size.
import WebSocket from 'ws'
import { describe, expect, it } from 'vitest'
import { serverPerSuite, waitFor } from './support/server.ts'

/** Opens a raw WebSocket on the MQTT path; resolves once it is open. */
function openWs(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, 'mqtt')
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

function closeCode(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once('close', (code) => resolve(code)))
}

describe('MQTT over WebSocket listener limits', () => {
  const suite = serverPerSuite()

  it('a WebSocket message larger than max_packet_size is refused by the WebSocket layer (1009) instead of being buffered whole', async () => {
    expect((await suite.api.request('PUT', '/configs/mqtt', { max_packet_size: '1KB' })).status).toBe(200)
    try {
      const ws = await openWs(suite.t.wsUrl)
      ws.on('error', () => {})
      const closed = closeCode(ws)
      ws.send(Buffer.alloc(64 * 1024, 0x30))
      // Before the fix the limit stayed at 256 MB: ws took the whole message and MQTT closed it later (1005/1000).
      expect(await closed).toBe(1009)
    } finally {
      expect((await suite.api.request('PUT', '/configs/mqtt', { max_packet_size: '1MB' })).status).toBe(200)
    }
  })

  it('a larger max_packet_size applies to new WebSocket connections: a 200 KB message goes through after raising it from 1KB', async () => {
    expect((await suite.api.request('PUT', '/configs/mqtt', { max_packet_size: '1KB' })).status).toBe(200)
    expect((await suite.api.request('PUT', '/configs/mqtt', { max_packet_size: '1MB' })).status).toBe(200)
    const sub = await suite.t.connect({ clientId: 'ws-big-sub', transport: 'ws' })
    await sub.subscribeAsync('ws/big', { qos: 1 })
    const got: number[] = []
    sub.on('message', (_topic, payload) => got.push(payload.length))
    const pub = await suite.t.connect({ clientId: 'ws-big-pub', transport: 'ws' })
    await pub.publishAsync('ws/big', Buffer.alloc(200 * 1024, 1), { qos: 1 })
    await waitFor(() => got.length === 1, 'the 200 KB message')
    expect(got).toEqual([200 * 1024])
  })

  it('a WebSocket upgrade on another path than /mqtt is refused with 400', async () => {
    const ws = new WebSocket(suite.t.wsUrl.replace('/mqtt', '/other'), 'mqtt')
    const status = await new Promise<number>((resolve) => {
      ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
      ws.once('error', () => resolve(-1))
    })
    expect(status).toBe(400)
  })
})
