// Secrets in the answers of /connectors and /actions as 5.8.9 redacts them, against a real node:http
// server: an `Authorization` header shown as `******` and kept when sent back masked, a placeholder
// shown as it is, and a mask with nothing behind it left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHttpTarget, type HttpTarget } from './support/http-target.ts'
import { connectMqtt, serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()
let http: HttpTarget
let url = ''
const put = (path: string, body?: unknown) => suite.api.request('PUT', path, body)

beforeAll(async () => {
  http = await startHttpTarget()
  url = http.url
})

afterAll(() => http.close())

describe('http connector secrets', () => {
  it('masks the authorization headers, keeps them when sent back masked, and shows a placeholder as it is', async () => {
    const created = await suite.api.post('/connectors', { type: 'http', name: 'auth', url, headers: { Authorization: 'Bearer abc', 'x-plain': 'v' } })
    expect(created.body.headers).toEqual({ Authorization: '******', 'x-plain': 'v' })
    const action = await suite.api.post('/actions', {
      type: 'http',
      name: 'auth',
      connector: 'auth',
      parameters: { headers: { 'proxy-authorization': '${clientid}', 'content-type': 'text/plain' }, body: '${payload}' },
    })
    expect(action.body.parameters.headers).toEqual({ 'proxy-authorization': '${clientid}', 'content-type': 'text/plain' })

    const again = await put('/connectors/http:auth', { url, headers: { Authorization: '******', 'x-plain': 'w', 'x-new': '******' } })
    expect(again.status).toBe(200)
    expect(again.body.headers).toEqual({ Authorization: '******', 'x-plain': 'w', 'x-new': '******' })
    // A secret header new to the config and sent masked is left out.
    const masked = await put('/connectors/http:auth', { url, headers: { Authorization: '******', 'Proxy-Authorization': '******' } })
    expect(masked.body.headers).toEqual({ Authorization: '******' })

    await suite.api.post('/rules', { id: 'auth', sql: 'SELECT * FROM "auth/#"', actions: ['http:auth'] })
    const device = await connectMqtt(suite.t.mqttUrl, { clientId: 'dev1' })
    await device.publishAsync('auth/1', 'x', { qos: 1 })
    expect((await waitFor(() => http.requests[0], 'the request')).headers).toMatchObject({ authorization: 'Bearer abc', 'proxy-authorization': 'dev1' })
  })
})
