// What the rule list reads, against the real server: its URL through rulesSearch (a hand-edited
// value that does not fit is dropped), EMQX 5.8's filters as the list sends them, each row's
// metrics, and the form's check of an action id (no actions exist yet: a plain 'no').
import { describe, expect, it } from 'vitest'
import { rulesSearch } from '../src/api/rules.ts'
import { readListSearch } from '../src/routes/searchValues.ts'
import { actionExists } from '../src/features/rules/actionExists.ts'
import { consoleSuite } from './support/commands.ts'

const suite = consoleSuite()
const ids = async (query: Parameters<typeof suite.api.rules.list>[0]) => (await suite.api.rules.list(query)).data.map((rule) => rule.id).sort()

describe('the rule list', () => {
  it('reads its URL through rulesSearch: filters kept, a value that does not fit dropped, default paging left out', () => {
    expect(readListSearch(rulesSearch, { like_id: ' hot ', enable: 'false', action: 'http:a', page: '1', limit: '20', match_from: '' }, { defaultLimit: 20 })).toEqual({
      like_id: 'hot',
      enable: false,
      action: 'http:a',
    })
    expect(readListSearch(rulesSearch, { enable: 'maybe', page: '3', limit: '50' }, { defaultLimit: 20 })).toEqual({ page: 3, limit: 50 })
  })

  it('filters as EMQX 5.8 does: id, FROM topic, FROM topics a wildcard matches, note, state and output action', async () => {
    const { api } = suite
    await api.rules.create({ id: 'hot_a', sql: 'SELECT * FROM "sensors/#"', description: 'temperature', actions: ['http:hook'] })
    await api.rules.create({ id: 'hot_b', sql: 'SELECT * FROM "meters/+/power"', enable: false })
    await api.rules.create({ id: 'cold', sql: 'SELECT * FROM "sensors/cold"', description: 'Temperature too' })
    expect(await ids({ like_id: 'hot' })).toEqual(['hot_a', 'hot_b'])
    expect(await ids({ like_from: 'sensors' })).toEqual(['cold', 'hot_a'])
    // EMQX matches each FROM topic against match_from as a filter (emqx_topic:match(From, MatchFrom)).
    expect(await ids({ match_from: 'meters/#' })).toEqual(['hot_b'])
    // A FROM filter is matched as if it were a topic name: '+' takes its '#' level too.
    expect(await ids({ match_from: 'sensors/+' })).toEqual(['cold', 'hot_a'])
    // Substrings are matched case-sensitively, as EMQX's binary:match does.
    expect(await ids({ like_description: 'emperature' })).toEqual(['cold', 'hot_a'])
    expect(await ids({ like_description: 'temp' })).toEqual(['hot_a'])
    expect(await ids({ enable: false })).toEqual(['hot_b'])
    expect(await ids({ action: 'http:hook' })).toEqual(['hot_a'])
    expect((await api.rules.metrics('hot_a')).metrics).toMatchObject({ matched: 0, 'matched.rate': 0 })
  })

  it('says an action the rule names does not exist while the server has no actions', async () => {
    expect(await actionExists(suite.api, 'http:hook')).toBe(false)
  })
})
