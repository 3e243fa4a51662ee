// Authorization sources (/authorization) seen by real mqtt.js clients (MQTT 3.1.1 and 5): denials
// of PUBLISH and SUBSCRIBE, deny_action, no_match, the order of sources, disable, the built-in
// database's rules with placeholders and `eq`, the file source, the counters, and a restart.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { collect, startTestServer, serverPerSuite, subackCodes, waitFor } from './support/server.ts'

const FILE_DENY_SECRET = `{deny, all, all, ["secret/#"]}.\n`

describe('authorization sources', () => {
  const suite = serverPerSuite()
  const api = () => suite.api
  const counter = async (name: string): Promise<number> => {
    const metrics = (await api().get('/metrics')).body as Array<Record<string, number>>
    return metrics[0][name]
  }
  afterEach(async () => {
    for (const { type } of (await api().get('/authorization/sources')).body.sources as Array<{ type: string }>) {
      await api().delete(`/authorization/sources/${type}`)
    }
    await api().request('PUT', '/authorization/settings', { no_match: 'allow', deny_action: 'ignore', cache: { enable: false, max_size: 32, ttl: '1m' } })
  })

  it('drops a denied QoS 0 publish, acks a denied QoS 1 publish with 0x87 under MQTT 5, refuses a subscription with 0x87 (0x80 under 3.1.1)', async () => {
    const rules = `{deny, all, publish, ["secret/#"]}.\n{deny, all, subscribe, ["hidden/#"]}.\n{allow, all}.\n`
    expect((await api().post('/authorization/sources', { type: 'file', rules })).status).toBe(204)
    const watcher = await suite.t.connect({ clientId: 'watcher', protocolVersion: 5 })
    expect(await subackCodes(watcher, ['hidden/a', 'secret/#'], { qos: 1 })).toEqual([0x87, 1])
    const v3 = await suite.t.connect({ clientId: 'v3-sub', protocolVersion: 4 })
    expect(await subackCodes(v3, ['hidden/a', 'open/b'], { qos: 0 })).toEqual([0x80, 0])

    const got = collect(watcher)
    const v5 = await suite.t.connect({ clientId: 'v5-pub', protocolVersion: 5 })
    v5.publish('secret/a', 'qos0-denied', { qos: 0 })
    await expect(v5.publishAsync('secret/a', 'qos1-denied', { qos: 1 })).rejects.toThrow(/Not authorized/)
    await watcher.subscribeAsync('open/#', { qos: 1 })
    await v5.publishAsync('open/a', 'after', { qos: 1 })
    await waitFor(() => got.some((m) => m.payload === 'after'), 'the allowed message')
    // Nothing denied arrived, and the publisher stays connected (deny_action ignore).
    expect(got.map((m) => m.payload)).toEqual(['after'])
    expect(v5.connected).toBe(true)
  })

  it('deny_action disconnect closes the connection; no_match deny refuses what no source answers', async () => {
    await api().post('/authorization/sources', { type: 'file', rules: '{deny, all, publish, ["forbidden"]}.\n' })
    await api().request('PUT', '/authorization/settings', { deny_action: 'disconnect' })
    const reasons: number[] = []
    const kicked = await suite.t.connect({ clientId: 'kicked', protocolVersion: 5, reconnectPeriod: 0 })
    kicked.on('disconnect', (packet) => reasons.push(packet.reasonCode ?? -1))
    kicked.on('error', () => {})
    kicked.publish('forbidden', 'x', { qos: 0 })
    await waitFor(() => reasons.length === 1, 'the DISCONNECT')
    expect(reasons).toEqual([0x87])

    await api().request('PUT', '/authorization/settings', { deny_action: 'ignore', no_match: 'deny' })
    const client = await suite.t.connect({ clientId: 'nomatch', protocolVersion: 5 })
    expect(await subackCodes(client, ['anything'], { qos: 0 })).toEqual([0x87])
  })

  it('asks the sources in order: the first answer decides, nomatch goes on; move, order and disable change that', async () => {
    await api().post('/authorization/sources', { type: 'file', rules: '{deny, all, subscribe, ["t/#"]}.\n' })
    await api().post('/authorization/sources', { type: 'built_in_database' })
    // A new source goes to the front.
    expect((await api().get('/authorization/sources')).body.sources.map((s: { type: string }) => s.type)).toEqual(['built_in_database', 'file'])
    await api().post('/authorization/sources/built_in_database/rules/all', { rules: [{ topic: 't/allowed', permission: 'allow', action: 'subscribe' }] })
    const client = await suite.t.connect({ clientId: 'order', protocolVersion: 5 })
    // built_in_database allows t/allowed; for t/other it has no rule, so file denies.
    expect(await subackCodes(client, ['t/allowed', 't/other'], { qos: 0 })).toEqual([0, 0x87])

    expect((await api().post('/authorization/sources/built_in_database/move', { position: 'after:file' })).status).toBe(204)
    expect((await api().get('/authorization/sources')).body.sources.map((s: { type: string }) => s.type)).toEqual(['file', 'built_in_database'])
    expect(await subackCodes(client, ['t/allowed'], { qos: 0 })).toEqual([0x87])

    expect((await api().request('PUT', '/authorization/sources/order', [{ type: 'built_in_database' }, { type: 'file' }])).status).toBe(204)
    expect(await subackCodes(client, ['t/allowed'], { qos: 0 })).toEqual([0])

    expect((await api().post('/authorization/sources/built_in_database/move', { position: 'rear' })).status).toBe(204)
    const file = (await api().get('/authorization/sources/file')).body
    expect((await api().request('PUT', '/authorization/sources/file', { ...file, enable: false })).status).toBe(204)
    expect(await subackCodes(client, ['t/allowed', 't/other'], { qos: 0 })).toEqual([0, 0])

    expect((await api().post('/authorization/sources/file/move', { position: 'before:nothing' })).status).toBe(404)
    expect((await api().post('/authorization/sources/file/move', { position: 'sideways' })).body).toEqual({ code: 'BAD_REQUEST', message: 'Invalid parameter. Unknow position' })
    expect((await api().request('PUT', '/authorization/sources/order', [{ type: 'file' }])).body.message).toBe('No positions are specified for authorization sources: built_in_database')
  })

  it('matches the built-in rules per client, per username and for all, with placeholders, eq, wildcards, QoS and retain', async () => {
    await api().post('/authorization/sources', { type: 'built_in_database' })
    await api().request('PUT', '/authorization/settings', { no_match: 'deny' })
    expect(
      (
        await api().post('/authorization/sources/built_in_database/rules/clients', [
          { clientid: 'dev-1', rules: [{ topic: 'dev/${clientid}/#', permission: 'allow', action: 'all' }] },
        ])
      ).status,
    ).toBe(204)
    await api().post('/authorization/sources/built_in_database/rules/users', [
      {
        username: 'alice',
        rules: [
          { topic: 'eq home/#', permission: 'allow', action: 'subscribe' },
          { topic: 'home/${username}', permission: 'allow', action: 'publish', qos: [0, 1], retain: false },
        ],
      },
    ])
    await api().post('/authorization/sources/built_in_database/rules/all', { rules: [{ topic: 'public/+', permission: 'allow', action: 'subscribe' }] })

    const dev = await suite.t.connect({ clientId: 'dev-1', username: 'alice', protocolVersion: 5 })
    expect(await subackCodes(dev, ['dev/dev-1/x', 'dev/dev-2/x', 'home/#', 'home/a', 'public/a', 'public/a/b'], { qos: 0 })).toEqual([0, 0x87, 0, 0x87, 0, 0x87])
    await dev.publishAsync('home/alice', 'ok', { qos: 1 })
    await expect(dev.publishAsync('home/alice', 'q2', { qos: 2 })).rejects.toThrow(/Not authorized/)
    await expect(dev.publishAsync('home/alice', 'retained', { qos: 1, retain: true })).rejects.toThrow(/Not authorized/)
    await expect(dev.publishAsync('home/bob', 'not mine', { qos: 1 })).rejects.toThrow(/Not authorized/)
  })

  it('moves the /metrics authorization counters and each source its own', async () => {
    await api().post('/authorization/sources', { type: 'file', rules: '{deny, all, publish, ["no"]}.\n{allow, all, publish, ["yes"]}.\n' })
    const before = { allow: await counter('authorization.allow'), deny: await counter('authorization.deny'), nomatch: await counter('authorization.nomatch') }
    const client = await suite.t.connect({ clientId: 'counted', protocolVersion: 5 })
    await client.publishAsync('yes', 'a', { qos: 1 })
    await expect(client.publishAsync('no', 'b', { qos: 1 })).rejects.toThrow(/Not authorized/)
    await client.publishAsync('other', 'c', { qos: 1 })
    expect(await counter('authorization.allow')).toBe(before.allow + 2)
    expect(await counter('authorization.deny')).toBe(before.deny + 1)
    expect(await counter('authorization.nomatch')).toBe(before.nomatch + 1)
    const status = (await api().get('/authorization/sources/file/status')).body
    expect(status.status).toBe('connected')
    expect(status.metrics).toMatchObject({ total: 3, allow: 1, deny: 1, nomatch: 1, ignore: 0 })
    expect(status.node_metrics[0].metrics.total).toBe(3)
  })

  it('applies the cache settings live: a repeated check is a cache hit, a change of source empties the cache', async () => {
    await api().post('/authorization/sources', { type: 'file', rules: '{allow, all, subscribe, ["c/#"]}.\n' })
    await api().request('PUT', '/authorization/settings', { cache: { enable: true, max_size: 8, ttl: '1m' } })
    const client = await suite.t.connect({ clientId: 'cached', protocolVersion: 5 })
    const hits = await counter('authorization.cache_hit')
    expect(await subackCodes(client, ['c/1'], { qos: 0 })).toEqual([0])
    expect(await subackCodes(client, ['c/1'], { qos: 0 })).toEqual([0])
    expect(await counter('authorization.cache_hit')).toBe(hits + 1)
    expect((await api().get('/clients/cached/authorization/cache')).body).toHaveLength(1)
    await api().request('PUT', '/authorization/sources/file', { type: 'file', rules: '{deny, all, subscribe, ["c/#"]}.\n' })
    expect((await api().get('/clients/cached/authorization/cache')).body).toEqual([])
    expect(await subackCodes(client, ['c/1'], { qos: 0 })).toEqual([0x87])
  })

  it('answers 400 for an incomplete database source, an unknown type, a bad Redis command and bad acl.conf text with its line', async () => {
    const unknown = await api().post('/authorization/sources', { type: 'cassandra', enable: true })
    expect(unknown.body.code).toBe('BAD_REQUEST')
    for (const type of ['mysql', 'postgresql', 'mongodb', 'redis', 'ldap']) {
      const response = await api().post('/authorization/sources', { type, enable: true })
      expect(response.status, type).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
    const badCommand = await api().post('/authorization/sources', { type: 'redis', redis_type: 'single', server: '127.0.0.1:6379', cmd: 'GET acl:${username}' })
    expect(badCommand.body).toEqual({ code: 'BAD_REQUEST', message: 'cmd must be HGETALL or HMGET, not GET' })
    const bad = await api().post('/authorization/sources', { type: 'file', rules: '{allow, all}.\n{allow, nobody, publish, ["t"]}.\n' })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/line 2: invalid who/)
    expect((await api().get('/authorization/sources')).body.sources).toEqual([])
  })
})

describe('authorization across a restart', () => {
  it('keeps the settings, the sources in their order and the built-in rules', async () => {
    const first = await startTestServer()
    const api = await first.login()
    await api.request('PUT', '/authorization/settings', { no_match: 'deny', deny_action: 'disconnect', cache: { enable: true, max_size: 10, ttl: '2m', excludes: [] } })
    await api.post('/authorization/sources', { type: 'file', rules: FILE_DENY_SECRET })
    await api.post('/authorization/sources', { type: 'built_in_database', max_rules: 5 })
    await api.post('/authorization/sources/built_in_database/rules/users', [{ username: 'kept', rules: [{ topic: 'k/#', permission: 'allow', action: 'all' }] }])
    const settings = (await api.get('/authorization/settings')).body
    const sources = (await api.get('/authorization/sources')).body
    await first.close({ keepData: true })
    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const again = await second.login()
      expect((await again.get('/authorization/settings')).body).toEqual(settings)
      expect((await again.get('/authorization/sources')).body).toEqual(sources)
      expect((await again.get('/authorization/sources/built_in_database/rules/users/kept')).body.rules[0].topic).toBe('k/#')
      const client = await second.connect({ clientId: 'after', username: 'kept', protocolVersion: 5 })
      expect(await subackCodes(client, ['k/1', 'secret/x', 'else'], { qos: 0 })).toEqual([0, 0x87, 0x87])
      client.end(true)
    } finally {
      await second.close()
    }
  })
})

describe('the http source', () => {
  const suite = serverPerSuite()
  const api = () => suite.api
  const seen: Array<{ method: string; url: string; headers: Record<string, unknown>; body: string }> = []
  let backend: Server
  let base = ''
  beforeAll(async () => {
    backend = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        seen.push({ method: request.method!, url: request.url!, headers: request.headers, body })
        const topic = new URL(request.url!, 'http://x').searchParams.get('topic') ?? (body ? (JSON.parse(body) as { topic?: string }).topic : undefined) ?? ''
        if (topic.startsWith('allow/')) return response.writeHead(204).end()
        if (topic.startsWith('deny/')) return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'deny' }))
        if (topic.startsWith('formdeny/')) return response.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' }).end('result=deny')
        if (topic.startsWith('ignore/')) return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'ignore' }))
        if (topic.startsWith('slow/')) return setTimeout(() => response.writeHead(204).end(), 1000)
        response.writeHead(500).end('no idea')
      })
    })
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`
  })
  afterAll(() => {
    backend.closeAllConnections()
    return new Promise<void>((resolve) => backend.close(() => resolve()))
  })
  afterEach(async () => {
    await api().delete('/authorization/sources/http')
    await api().request('PUT', '/authorization/settings', { no_match: 'allow' })
    seen.length = 0
  })

  it('GET with placeholders in the URL: 204 allows, {"result":"deny"} denies, ignore and other statuses go on to no_match, a timeout is ignore', async () => {
    const created = await api().post('/authorization/sources', {
      type: 'http',
      method: 'get',
      url: `${base}/authz/\${clientid}?topic=\${topic}&action=\${action}&qos=\${qos}&retain=\${retain}&user=\${username}&host=\${peerhost}&kept=\${nope}`,
      request_timeout: '300ms',
    })
    expect(created.status).toBe(204)
    await api().request('PUT', '/authorization/settings', { no_match: 'deny' })
    const client = await suite.t.connect({ clientId: 'web client', username: 'u1', protocolVersion: 5 })
    await client.publishAsync('allow/a', 'x', { qos: 1, retain: true })
    expect(seen[0].method).toBe('GET')
    const url = new URL(seen[0].url, base)
    expect(url.pathname).toBe('/authz/web%20client')
    expect(Object.fromEntries(url.searchParams)).toEqual({ topic: 'allow/a', action: 'publish', qos: '1', retain: 'true', user: 'u1', host: '127.0.0.1', kept: '${nope}' })
    await expect(client.publishAsync('deny/a', 'x', { qos: 1 })).rejects.toThrow(/Not authorized/)
    expect(await subackCodes(client, ['formdeny/a', 'ignore/a', 'other/a', 'slow/a'], { qos: 1 })).toEqual([0x87, 0x87, 0x87, 0x87])
    await api().request('PUT', '/authorization/settings', { no_match: 'allow' })
    expect(await subackCodes(client, ['ignore/a', 'other/a', 'allow/b'], { qos: 1 })).toEqual([1, 1, 1])
    const status = (await api().get('/authorization/sources/http/status')).body
    expect(status.metrics).toMatchObject({ total: 9, allow: 2, deny: 2, ignore: 3, nomatch: 2 })
    expect(status.resource_metrics).toMatchObject({ matched: 9, success: 8, failed: 1 })
  })

  it('POST sends the body with placeholders as JSON, and the headers', async () => {
    await api().post('/authorization/sources', {
      type: 'http',
      method: 'post',
      url: `${base}/authz`,
      headers: { 'content-type': 'application/json', 'x-token': 'secret-${clientid}' },
      body: { topic: '${topic}', clientid: '${clientid}', access: '${access}' },
    })
    const client = await suite.t.connect({ clientId: 'poster', protocolVersion: 4 })
    expect(await subackCodes(client, ['deny/x', 'allow/x'], { qos: 0 })).toEqual([0x80, 0])
    expect(seen.map((r) => [r.method, JSON.parse(r.body), r.headers['x-token']])).toEqual([
      ['POST', { topic: 'deny/x', clientid: 'poster', access: '1' }, 'secret-poster'],
      ['POST', { topic: 'allow/x', clientid: 'poster', access: '1' }, 'secret-poster'],
    ])
    const shown = (await api().get('/authorization/sources/http')).body
    expect(shown).toMatchObject({ type: 'http', method: 'post', request_timeout: '30s', pool_size: 8 })
    expect((await api().post('/authorization/sources', { type: 'http', method: 'get', url: base, headers: { 'Content-Type': 'x' } })).body.message).toMatch(/content-type/)
  })
})
