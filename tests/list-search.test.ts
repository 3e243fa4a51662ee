// A list screen's URL read through its API module's query schema: field by field, a value that
// does not fit dropped, the paging kept only off its defaults.
import { describe, expect, it } from 'vitest'
import { clientsSearch } from '../src/api/clients.ts'
import { subscriptionsSearch } from '../src/api/subscriptions.ts'
import { alarmsSearch } from '../src/api/alarms.ts'
import { readListSearch } from '../src/routes/searchValues.ts'

describe('a list URL read through its query schema', () => {
  it('keeps the client filters that fit, typed, and drops the rest', () => {
    const raw = { like_clientid: ' dev ', proto_ver: '5', clean_start: 'false', conn_state: 'sleeping', node: '', page: '1', limit: '50', other: 'x' }
    expect(readListSearch(clientsSearch, raw, { defaultLimit: 20 })).toEqual({ like_clientid: 'dev', proto_ver: 5, clean_start: false, limit: 50 })
    // As the router hands them over after reading the URL: numbers and booleans already.
    expect(readListSearch(clientsSearch, { proto_ver: 4, clean_start: true, conn_state: 'connected', page: 2 }, { defaultLimit: 20 })).toEqual({
      proto_ver: 4,
      clean_start: true,
      conn_state: 'connected',
      page: 2,
    })
    expect(readListSearch(clientsSearch, { proto_ver: '6', limit: '20' }, { defaultLimit: 20 })).toEqual({})
  })

  it("reads QoS 0 (not blank as 0) and keeps limit=all only where the list offers it", () => {
    expect(readListSearch(subscriptionsSearch, { qos: '0', limit: 'all', page: '3' }, { defaultLimit: 20, all: true })).toEqual({ qos: 0, limit: 'all' })
    expect(readListSearch(subscriptionsSearch, { qos: '', limit: 'all' }, { defaultLimit: 20 })).toEqual({})
    expect(readListSearch(alarmsSearch, { page: '4', limit: 'x' }, { defaultLimit: 20 })).toEqual({ page: 4 })
  })
})
