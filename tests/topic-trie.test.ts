import { describe, expect, it } from 'vitest'
import { isValidFilter, isValidTopicName, matchesFilter, parseShare, TopicTrie } from '../server/broker/topic-trie.ts'

function matching(trie: TopicTrie<string>, topic: string): string[] {
  const found: string[] = []
  trie.match(topic, (value) => found.push(value))
  return found.sort()
}

describe('topic names and filters', () => {
  it('accepts topic names without wildcards and rejects the rest', () => {
    expect(isValidTopicName('a/b/c')).toBe(true)
    expect(isValidTopicName('/leading/slash')).toBe(true)
    expect(isValidTopicName('$SYS/brokers')).toBe(true)
    expect(isValidTopicName('')).toBe(false)
    expect(isValidTopicName('a/+/c')).toBe(false)
    expect(isValidTopicName('a/#')).toBe(false)
    expect(isValidTopicName('a\u0000b')).toBe(false)
  })

  it('accepts wildcards only as whole levels, and # only last', () => {
    for (const ok of ['#', '+', 'a/#', 'a/+/c', '+/+', '/+', 'a//b', '$SYS/#']) expect(isValidFilter(ok), ok).toBe(true)
    for (const bad of ['', 'a/#/c', 'a#', 'a/b+', '+a/b', '##', 'a/\u0000']) expect(isValidFilter(bad), bad).toBe(false)
  })

  it('splits shared subscriptions into group and filter', () => {
    expect(parseShare('$share/g1/a/+')).toEqual({ filter: 'a/+', group: 'g1' })
    expect(parseShare('a/b')).toEqual({ filter: 'a/b' })
    expect(parseShare('$share/g1')).toBeUndefined()
    expect(parseShare('$share//a')).toBeUndefined()
    expect(parseShare('$share/g+/a')).toBeUndefined()
  })

  it('matches a single filter level by level', () => {
    expect(matchesFilter('a/+/c', 'a/b/c')).toBe(true)
    expect(matchesFilter('a/#', 'a')).toBe(true)
    expect(matchesFilter('a/#', 'a/b/c')).toBe(true)
    expect(matchesFilter('a/+', 'a/b/c')).toBe(false)
    expect(matchesFilter('a/b', 'a/b/c')).toBe(false)
    expect(matchesFilter('+/+', '/x')).toBe(true)
    expect(matchesFilter('#', '$SYS/x')).toBe(false)
    expect(matchesFilter('+/x', '$SYS/x')).toBe(false)
    expect(matchesFilter('$SYS/#', '$SYS/x')).toBe(true)
  })
})

describe('topic trie', () => {
  it('finds every filter that matches a topic, wildcards included', () => {
    const trie = new TopicTrie<string>()
    trie.add('a/b/c', 'c1', 'exact')
    trie.add('a/+/c', 'c1', 'plus')
    trie.add('a/#', 'c1', 'hash')
    trie.add('#', 'c2', 'all')
    trie.add('a/b', 'c2', 'other')
    trie.add('+/+/+', 'c3', 'three-plus')
    expect(matching(trie, 'a/b/c')).toEqual(['all', 'exact', 'hash', 'plus', 'three-plus'])
    expect(matching(trie, 'a/b')).toEqual(['all', 'hash', 'other'])
    expect(matching(trie, 'x/y')).toEqual(['all'])
  })

  it('lets a/# match the parent level a itself', () => {
    const trie = new TopicTrie<string>()
    trie.add('a/#', 'c1', 'hash')
    expect(matching(trie, 'a')).toEqual(['hash'])
    expect(matching(trie, 'b')).toEqual([])
  })

  it('does not match $ topics with leading wildcards', () => {
    const trie = new TopicTrie<string>()
    trie.add('#', 'c1', 'all')
    trie.add('+/stats', 'c1', 'plus')
    trie.add('$SYS/#', 'c1', 'sys')
    trie.add('$SYS/+', 'c1', 'sys-plus')
    expect(matching(trie, '$SYS/stats')).toEqual(['sys', 'sys-plus'])
    expect(matching(trie, 'x/stats')).toEqual(['all', 'plus'])
  })

  it('keeps one entry per key and filter, and counts distinct filters', () => {
    const trie = new TopicTrie<string>()
    expect(trie.add('a/+', 'c1', 'first')).toBe(true)
    expect(trie.add('a/+', 'c1', 'replaced')).toBe(false)
    expect(trie.add('a/+', 'c2', 'second')).toBe(true)
    expect(trie.filterCount).toBe(1)
    expect(matching(trie, 'a/x')).toEqual(['replaced', 'second'])
  })

  it('forgets removed entries and prunes empty branches', () => {
    const trie = new TopicTrie<string>()
    trie.add('a/b/c', 'c1', 'deep')
    trie.add('a/b', 'c1', 'shallow')
    expect(trie.remove('a/b/c', 'c1')).toBe(true)
    expect(trie.remove('a/b/c', 'c1')).toBe(false)
    expect(trie.remove('nowhere', 'c1')).toBe(false)
    expect(matching(trie, 'a/b/c')).toEqual([])
    expect(matching(trie, 'a/b')).toEqual(['shallow'])
    expect(trie.filterCount).toBe(1)
    trie.remove('a/b', 'c1')
    expect(trie.filterCount).toBe(0)
    // A fresh add after pruning still works.
    trie.add('a/b/c', 'c1', 'again')
    expect(matching(trie, 'a/b/c')).toEqual(['again'])
  })

  it('tells each visit which filter and key matched', () => {
    const trie = new TopicTrie<number>()
    trie.add('s/+', 'k1', 1)
    const visits: Array<[number, string, string]> = []
    trie.match('s/1', (value, filter, key) => visits.push([value, filter, key]))
    expect(visits).toEqual([[1, 's/+', 'k1']])
  })
})

describe('matchesFilter', () => {
  /** MQTT's matching written the plain way, level arrays and all: what the fast walk must agree with. */
  function byLevels(filter: string, topic: string): boolean {
    const f = filter.split('/')
    const t = topic.split('/')
    if (t[0].startsWith('$') && (f[0] === '+' || f[0] === '#')) return false
    for (let i = 0; i < f.length; i++) {
      if (f[i] === '#') return true
      if (i >= t.length) return false
      if (f[i] !== '+' && f[i] !== t[i]) return false
    }
    return f.length === t.length
  }

  /** Every string of 1 to `depth` levels drawn from `levels`. */
  function paths(levels: string[], depth: number): string[] {
    let out = levels.slice()
    let last = levels.slice()
    for (let d = 2; d <= depth; d++) {
      last = last.flatMap((path) => levels.map((level) => `${path}/${level}`))
      out = out.concat(last)
    }
    return out
  }

  it('agrees with level-by-level matching on every filter and topic of up to three levels', () => {
    const topics = paths(['a', 'ab', '', '$s'], 3)
    const filters = paths(['a', 'ab', '', '$s', '+', '#'], 3)
    let compared = 0
    for (const filter of filters)
      for (const topic of topics) {
        expect(matchesFilter(filter, topic), `${filter} ~ ${topic}`).toBe(byLevels(filter, topic))
        compared++
      }
    expect(compared).toBeGreaterThan(10_000)
  })
})
