// query_mode sync holds the publishing client as EMQX's sync query holds its process: while a rule's
// action in sync mode waits for its target, the client's next packets wait too; in async mode they
// do not. A real HTTP target that answers only when told to, real mqtt.js clients.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()
const bodies: string[] = []
const waiting: ServerResponse[] = []
const target = createServer((req, res) => {
  let body = ''
  req.on('data', (chunk: Buffer) => (body += chunk.toString()))
  req.on('end', () => {
    bodies.push(body)
    waiting.push(res)
  })
})
let url = ''

afterAll(() => {
  target.closeAllConnections()
  target.close()
})

function release(): void {
  for (const res of waiting.splice(0)) res.writeHead(200).end()
}

async function setUp(mode: 'sync' | 'async'): Promise<void> {
  if (!url) {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`
  }
  expect((await suite.api.post('/connectors', { type: 'http', name: `held_${mode}`, url })).status).toBe(201)
  const action = { type: 'http', name: `held_${mode}`, connector: `held_${mode}`, parameters: { body: '${payload}' }, resource_opts: { query_mode: mode } }
  expect((await suite.api.post('/actions', action)).status).toBe(201)
  expect((await suite.api.post('/rules', { id: `held_${mode}`, sql: `SELECT * FROM "held/${mode}/#"`, actions: [`http:held_${mode}`] })).status).toBe(201)
  await waitFor(async () => (await suite.api.get(`/actions/http:held_${mode}`)).body.status === 'connected', 'the action connected')
}

describe('query_mode and the publishing client', () => {
  it('sync: the client\'s next publish waits until the target answers the first; nothing is lost', async () => {
    await setUp('sync')
    bodies.length = 0
    const client = await suite.t.connect()
    let secondAcked = false
    const first = client.publishAsync('held/sync/1', 'one', { qos: 1 })
    const second = client.publishAsync('held/sync/2', 'two', { qos: 1 }).then(() => (secondAcked = true))
    await first
    await waitFor(() => bodies.length === 1, 'the first request at the target')
    // The target holds its answer: the second PUBLISH is not read, so neither sent on nor acknowledged.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(bodies).toEqual(['one'])
    expect(secondAcked).toBe(false)
    release()
    await second
    await waitFor(() => bodies.length === 2, 'the second request')
    release()
    expect(bodies).toEqual(['one', 'two'])
    await waitFor(async () => (await suite.api.get('/actions/http:held_sync/metrics')).body.metrics.success === 2, 'both counted a success')
  })

  it('async: the client goes on while the target holds its answers', async () => {
    await setUp('async')
    bodies.length = 0
    const client = await suite.t.connect()
    await client.publishAsync('held/async/1', 'one', { qos: 1 })
    await client.publishAsync('held/async/2', 'two', { qos: 1 })
    await waitFor(() => bodies.length === 2, 'both requests at the target before any answer')
    release()
    await waitFor(async () => (await suite.api.get('/actions/http:held_async/metrics')).body.metrics.success === 2, 'both counted a success')
  })
})
