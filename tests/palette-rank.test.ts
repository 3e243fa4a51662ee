import { describe, expect, it } from 'vitest'
import { matchScore, pushRecent, rank, recentOf, usageOf, type RankItem } from '../src/app/palette/rank.ts'
import { paletteUsage } from '../src/app/palette/recent.ts'

const items: RankItem[] = [
  { id: 'go.clients', titles: ['Clients', '客户端'], aliases: ['/clients/list'] },
  { id: 'go.slowSubConfig', titles: ['Slow Subscription Settings', '慢订阅设置'] },
  { id: 'client.kick', titles: ['Kick out client', '踢除客户端'], aliases: ['kick', 'disconnect'] },
  { id: 'settings.theme', titles: ['Change theme', '切换主题'], aliases: ['dark', 'light'] },
  { id: 'session.logout', titles: ['Logout', '退出登录'], aliases: ['sign out'] },
]

const ids = (query: string, recent: string[] = []) => rank(items, query, recent).map((r) => r.item.id)

describe('palette ranking', () => {
  it('keeps every command in the given order for an empty query', () => {
    expect(ids('')).toEqual(items.map((i) => i.id))
  })

  it('puts recently used commands first, most recent first, for an empty query', () => {
    expect(ids('', ['session.logout', 'client.kick']).slice(0, 3)).toEqual(['session.logout', 'client.kick', 'go.clients'])
  })

  it('matches the English title, the Chinese title, the id and aliases', () => {
    expect(ids('logout')[0]).toBe('session.logout')
    expect(ids('退出')[0]).toBe('session.logout')
    expect(ids('主题')).toEqual(['settings.theme'])
    expect(ids('client.kick')[0]).toBe('client.kick')
    expect(ids('dark')).toEqual(['settings.theme'])
    expect(ids('/clients')[0]).toBe('go.clients')
  })

  it('drops commands that do not match every word of the query', () => {
    expect(ids('kick client')).toEqual(['client.kick'])
    expect(ids('client kick')).toEqual(['client.kick'])
    expect(ids('zzz')).toEqual([])
  })

  it('ranks a title prefix above a match inside a word', () => {
    // "cli" starts "Clients" but sits inside "Kick out client" only after a word start.
    const ranked = rank(items, 'cli')
    expect(ranked[0].item.id).toBe('go.clients')
    expect(ranked.map((r) => r.item.id)).toContain('client.kick')
  })

  it('matches scattered letters, weaker than a substring', () => {
    expect(ids('ssc')[0]).toBe('go.slowSubConfig')
    expect(matchScore('Slow Subscription Settings', 'ssc')).toBeGreaterThan(0)
    expect(matchScore('Slow Subscription Settings', 'ssc')).toBeLessThan(matchScore('Slow Subscription Settings', 'sub'))
  })

  it('ranks a prefix of an id word above letters scattered through another command, even one used often', () => {
    const palette: RankItem[] = [
      { id: 'go.nodes', titles: ['Nodes', '节点'], aliases: ['/dashboard/nodes'] },
      { id: 'go.bannedClients', titles: ['Banned Clients', '黑名单'], aliases: ['/banned-clients'] },
      { id: 'banned.create', titles: ['Ban a client, username or address', '封禁客户端、用户名或地址'], aliases: ['block', '封禁'] },
    ]
    // `ban` is in /dashBoArd/Nodes only as scattered letters; the navigation was used every day.
    expect(matchScore('/dashboard/nodes', 'ban')).toBeGreaterThan(0)
    const usage = usageOf(Array.from({ length: 30 }, (_, i) => ({ id: 'go.nodes', time: 1000 + i })))
    const ranked = rank(palette, 'ban', ['go.nodes'], usage).map((r) => r.item.id)
    expect(ranked).toEqual(['go.bannedClients', 'banned.create'])
  })

  it('keeps scattered matches when no command has the query at a word start', () => {
    const palette: RankItem[] = [
      { id: 'client.kick', titles: ['Kick out client'] },
      { id: 'go.webhookCreate', titles: ['Create Webhook'] },
    ]
    // `kc` sits inside webhookCreate (not at a word start) and is scattered in Kick out client.
    expect(rank(palette, 'kc').map((r) => r.item.id)).toEqual(['go.webhookCreate', 'client.kick'])
  })

  it('scores exact over prefix over word start over substring', () => {
    const exact = matchScore('kick', 'kick')
    const prefix = matchScore('kick out', 'kick')
    const wordStart = matchScore('client kick', 'kick')
    const inside = matchScore('sidekick', 'kick')
    expect(exact).toBeGreaterThan(prefix)
    expect(prefix).toBeGreaterThan(wordStart)
    expect(wordStart).toBeGreaterThan(inside)
    expect(matchScore('kick', 'x')).toBe(0)
  })

  it('lets recent use lift an equally good match', () => {
    const two: RankItem[] = [
      { id: 'a.theme', titles: ['Theme A'] },
      { id: 'b.theme', titles: ['Theme B'] },
    ]
    expect(rank(two, 'theme').map((r) => r.item.id)).toEqual(['a.theme', 'b.theme'])
    expect(rank(two, 'theme', ['b.theme']).map((r) => r.item.id)).toEqual(['b.theme', 'a.theme'])
    expect(rank(two, 'theme', ['b.theme'])[0].recent).toBe(0)
  })

  it('keeps the recent list short, unique and most recent first', () => {
    expect(pushRecent(['a', 'b', 'c'], 'b')).toEqual(['b', 'a', 'c'])
    expect(pushRecent(['a', 'b', 'c'], 'd', 3)).toEqual(['d', 'a', 'b'])
    expect(pushRecent([], 'a')).toEqual(['a'])
  })
})

describe('palette ranking with the command history', () => {
  const history = (ids: string[], start = 1000) => ids.map((id, i) => ({ id, time: start + i }))

  it('counts runs per command and orders recent ones by their latest run', () => {
    const usage = usageOf(history(['client.kick', 'go.clients', 'client.kick', 'settings.theme']))
    expect(usage.get('client.kick')).toEqual({ count: 2, last: 1002 })
    expect(recentOf(usage)).toEqual(['settings.theme', 'client.kick', 'go.clients'])
  })

  it('lifts a frequently used command above an equally good match', () => {
    const two: RankItem[] = [
      { id: 'a.theme', titles: ['Theme A'] },
      { id: 'b.theme', titles: ['Theme B'] },
    ]
    const usage = usageOf(history(['b.theme', 'b.theme', 'b.theme']))
    expect(rank(two, 'theme', [], usage).map((r) => r.item.id)).toEqual(['b.theme', 'a.theme'])
  })

  it('does not let frequency outrank a much better match', () => {
    const usage = usageOf(history(Array(50).fill('go.slowSubConfig')))
    expect(rank(items, 'logout', [], usage).map((r) => r.item.id)).toEqual(['session.logout'])
    expect(rank(items, 'kick', [], usage)[0].item.id).toBe('client.kick')
  })

  it('orders an empty query recent first, then by number of runs', () => {
    const usage = usageOf(history(['settings.theme', 'settings.theme', 'settings.theme', 'go.slowSubConfig']))
    expect(rank(items, '', ['session.logout'], usage).map((r) => r.item.id)).toEqual([
      'session.logout',
      'settings.theme',
      'go.slowSubConfig',
      'go.clients',
      'client.kick',
    ])
  })

  it('matches the Chinese title while the console is in English and the English one in Chinese', () => {
    // Titles hold both languages whatever the UI language, so either can be typed.
    expect(ids('踢除')).toEqual(['client.kick'])
    expect(ids('subscription settings')).toEqual(['go.slowSubConfig'])
  })

  it('takes recent ids from the history first, then the palette list, without repeats', () => {
    const { recent, usage } = paletteUsage(history(['go.clients', 'client.kick']), ['session.logout', 'client.kick'])
    expect(recent).toEqual(['client.kick', 'go.clients', 'session.logout'])
    expect(usage.get('go.clients')?.count).toBe(1)
  })
})
