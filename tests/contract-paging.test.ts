// The paging contract (contract/paging.ts) against the server's real paged lists: the envelope the
// browser reads, the meta the server writes, and the page/limit query both sides share.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { MAX_LIMIT, paged } from '../contract/paging.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

const PAGED_LISTS = ['/banned', '/alarms', '/mqtt/delayed/messages', '/mqtt/retainer/messages', '/clients', '/subscriptions', '/topics']
const ServerMeta = v.strictObject({ page: v.number(), limit: v.number(), count: v.number(), hasnext: v.boolean() })

describe('paging contract', () => {
  it('every paged list answers the envelope the browser reads, with the meta the server writes', async () => {
    await suite.api.post('/banned', { as: 'clientid', who: 'paging-contract' })
    for (const path of PAGED_LISTS) {
      const { status, body } = await suite.api.get(`${path}?page=1&limit=1`)
      expect(status, path).toBe(200)
      expect(v.safeParse(paged(v.unknown()), body).success, path).toBe(true)
      expect(v.safeParse(ServerMeta, body.meta).success, `${path} meta ${JSON.stringify(body.meta)}`).toBe(true)
      expect(body.meta).toMatchObject({ page: 1, limit: 1 })
    }
    const banned = (await suite.api.get('/banned?limit=1')).body
    expect(banned.meta).toEqual({ page: 1, limit: 1, count: 1, hasnext: false })
  })

  it(`shares the query: page from 1, limit from 1 to ${MAX_LIMIT}`, async () => {
    for (const path of PAGED_LISTS) {
      for (const query of ['page=0', 'limit=0', `limit=${MAX_LIMIT + 1}`, 'page=x']) {
        const response = await suite.api.get(`${path}?${query}`)
        expect(response.status, `${path}?${query}`).toBe(400)
        expect(response.body.code).toBe('BAD_REQUEST')
      }
      expect((await suite.api.get(`${path}?limit=${MAX_LIMIT}`)).status, path).toBe(200)
    }
  })
})
