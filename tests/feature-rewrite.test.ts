// Topic rewrite rules (/mqtt/topic_rewrite), seen by real mqtt.js clients.
import { afterEach, describe, expect, it } from 'vitest'
import { collect, serverPerSuite, startTestServer, waitFor } from './support/server.ts'

const s = serverPerSuite()

afterEach(async () => {
  await s.api.request('PUT', '/mqtt/topic_rewrite', [])
})

const rule = (action: string, source_topic: string, re: string, dest_topic: string) => ({ action, source_topic, re, dest_topic })

describe('topic rewrite', () => {
  it('rewrites PUBLISH topics with $N from the regex and ${clientid} / ${username}', async () => {
    const { api, t } = s
    const rules = [rule('publish', 'x/#', '^x/(.+)/(.+)$', 'y/$2/$1'), rule('publish', 'who/+', '^who/(.+)$', 'from/${clientid}/${username}/$1')]
    const put = await api.request('PUT', '/mqtt/topic_rewrite', rules)
    expect(put.status).toBe(200)
    expect(put.body).toEqual(rules)
    expect((await api.get('/mqtt/topic_rewrite')).body).toEqual(rules)

    const sub = await t.connect({ clientId: 'rw-sub' })
    await sub.subscribeAsync(['y/#', 'from/#', 'x/#'])
    const got = collect(sub)
    const pub = await t.connect({ clientId: 'rw-pub', username: 'alice' })
    await pub.publishAsync('x/a/b', 'one', { qos: 1 })
    await pub.publishAsync('who/me', 'two', { qos: 1 })
    await waitFor(() => got.length >= 2, 'the rewritten messages')
    expect(got.map((m) => [m.topic, m.payload]).sort()).toEqual([
      ['from/rw-pub/alice/me', 'two'],
      ['y/b/a', 'one'],
    ])
  })

  it('matches rule regexes in linear time: a catastrophic pattern on a long topic answers, and what needs backtracking is refused', async () => {
    const { api, t } = s
    const refused = await api.request('PUT', '/mqtt/topic_rewrite', [rule('publish', 'la/#', '^la/(?=x)(.+)$', 'lb/$1')])
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/regular expression/)
    expect((await api.get('/mqtt/topic_rewrite')).body).toEqual([])

    await api.request('PUT', '/mqtt/topic_rewrite', [rule('publish', 'evil/#', '^evil/((a+)+)$', 'safe/$1')])
    const sub = await t.connect({ clientId: 'evil-sub' })
    await sub.subscribeAsync(['safe/#', 'evil/#'])
    const got = collect(sub)
    const pub = await t.connect({ clientId: 'evil-pub' })
    const long = `evil/${'a'.repeat(40)}!`
    await pub.publishAsync(long, 'kept', { qos: 1 })
    await pub.publishAsync('evil/aaa', 'moved', { qos: 1 })
    await waitFor(() => got.length >= 2, 'both messages')
    expect(got.map((m) => [m.topic, m.payload]).sort()).toEqual([
      [long, 'kept'],
      ['safe/aaa', 'moved'],
    ])
  })

  it('uses the last rule whose source filter matches, as EMQX 5.8 does, and leaves the topic when its regex does not match', async () => {
    const { api, t } = s
    await api.request('PUT', '/mqtt/topic_rewrite', [
      rule('all', 'a/+', '^a/(.+)$', 'any/$1'),
      rule('all', 'a/#', '^a/(\\d+)$', 'num/$1'),
    ])
    const sub = await t.connect({ clientId: 'order-sub' })
    await sub.subscribeAsync(['num/#', 'any/#', 'a/#'])
    const got = collect(sub)
    const pub = await t.connect({ clientId: 'order-pub' })
    await pub.publishAsync('a/42', '1', { qos: 1 })
    // a/xyz matches the last rule's filter but not its regex: no earlier rule is tried.
    await pub.publishAsync('a/xyz', '2', { qos: 1 })
    await waitFor(() => got.length >= 2, 'both messages')
    expect(got.map((m) => m.topic).sort()).toEqual(['a/xyz', 'num/42'])
  })

  it('rewrites SUBSCRIBE and UNSUBSCRIBE filters for subscribe rules, not PUBLISH topics', async () => {
    const { api, t } = s
    // A subscribe rule may rewrite to a filter with wildcards.
    expect((await api.request('PUT', '/mqtt/topic_rewrite', [rule('subscribe', 'any/+', '^any/(.+)$', 'all/$1/#')])).status).toBe(200)
    await api.request('PUT', '/mqtt/topic_rewrite', [rule('subscribe', 'old/#', '^old/(.+)$', 'new/$1')])
    const sub = await t.connect({ clientId: 'sub-rw', protocolVersion: 5 })
    const granted = await sub.subscribeAsync('old/room/#', { qos: 1 })
    expect(granted[0].qos).toBe(1)
    const subscriptions = await api.get('/clients/sub-rw/subscriptions')
    expect(subscriptions.body.map((x: { topic: string }) => x.topic)).toEqual(['new/room/#'])
    const got = collect(sub)
    const pub = await t.connect({ clientId: 'sub-rw-pub' })
    await pub.publishAsync('new/room/1', 'to-new', { qos: 1 })
    // A publish rule does not exist, so old/... is routed as is (and nobody is on it).
    await pub.publishAsync('old/room/1', 'to-old', { qos: 1 })
    await waitFor(() => got.length >= 1, 'the message on the rewritten filter')
    expect(got.map((m) => m.payload)).toEqual(['to-new'])
    await sub.unsubscribeAsync('old/room/#')
    expect((await api.get('/clients/sub-rw/subscriptions')).body).toEqual([])
  })

  it('rewrites the filter inside a shared subscription', async () => {
    const { api, t } = s
    await api.request('PUT', '/mqtt/topic_rewrite', [rule('subscribe', 'in/+', '^in/(.+)$', 'out/$1')])
    const sub = await t.connect({ clientId: 'share-rw' })
    await sub.subscribeAsync('$share/g/in/1')
    expect((await api.get('/clients/share-rw/subscriptions')).body.map((x: { topic: string }) => x.topic)).toEqual(['$share/g/out/1'])
  })

  it('refuses bad rules with 400 (and more than 20 with 413) and keeps the rules it had', async () => {
    const { api } = s
    const good = [rule('publish', 'g/#', '^g/(.+)$', 'h/$1')]
    await api.request('PUT', '/mqtt/topic_rewrite', good)
    const bad = [
      [rule('everything', 'a/#', 'a', 'b')],
      [rule('publish', 'a/#/b', 'a', 'b')],
      [rule('publish', 'a/#', '(', 'b')],
      [rule('publish', 'a/#', 'a', '')],
      // A publish (or all) rule cannot rewrite to a filter with wildcards.
      [rule('publish', 'a/#', '^a/(.+)$', 'b/#')],
      [rule('all', 'a/#', '^a/(.+)$', 'b/+/$1')],
      [{ action: 'publish', source_topic: 'a/#', dest_topic: 'b' }],
      { action: 'publish' },
    ]
    for (const body of bad) {
      const response = await api.request('PUT', '/mqtt/topic_rewrite', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
      expect(typeof response.body.message).toBe('string')
    }
    // EMQX's check is `length < 20`: 19 rules are taken, 20 are refused.
    const rules = (n: number) => Array.from({ length: n }, (_, i) => rule('publish', `t${i}/#`, '^(.+)$', 'u/$1'))
    const over = await api.request('PUT', '/mqtt/topic_rewrite', rules(20))
    expect(over.status).toBe(413)
    expect(over.body).toEqual({ code: 'EXCEED_LIMIT', message: 'Max rewrite rules count is 20' })
    expect((await api.request('PUT', '/mqtt/topic_rewrite', rules(19))).status).toBe(200)
    await api.request('PUT', '/mqtt/topic_rewrite', good)
    expect((await api.get('/mqtt/topic_rewrite')).body).toEqual(good)
  })

  it('keeps the rules across a restart', async () => {
    const first = await startTestServer()
    const rules = [rule('publish', 'p/#', '^p/(.+)$', 'q/$1')]
    await (await first.login()).request('PUT', '/mqtt/topic_rewrite', rules)
    await first.close({ keepData: true })
    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      expect((await (await second.login()).get('/mqtt/topic_rewrite')).body).toEqual(rules)
      const sub = await second.connect({ clientId: 'restart-sub' })
      await sub.subscribeAsync('q/#')
      const got = collect(sub)
      const pub = await second.connect({ clientId: 'restart-pub' })
      await pub.publishAsync('p/1', 'x', { qos: 1 })
      await waitFor(() => got.length === 1, 'the rewritten message after the restart')
      expect(got[0].topic).toBe('q/1')
      await sub.endAsync()
      await pub.endAsync()
    } finally {
      await second.close()
    }
  })
})
