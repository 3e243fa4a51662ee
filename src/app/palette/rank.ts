// Palette ranking, pure: fuzzy match of the query over a command's titles (both languages), id and
// aliases, with recently and frequently used commands first. No React, so it is tested on its own.

export interface RankItem {
  id: string
  /** The title in every language, so an operator can type either. */
  titles: string[]
  aliases?: string[]
}

export interface Ranked<T> {
  item: T
  score: number
  /** Position in the recent list, or -1. */
  recent: number
}

const BOUNDARY = /[\s./_\-:]/

function isBoundary(text: string, i: number): boolean {
  if (i === 0) return true
  const before = text[i - 1]
  if (BOUNDARY.test(before)) return true
  // camelCase ids: `go.slowSubConfig` matches `config` at the capital.
  return before === before.toLowerCase() && text[i] !== text[i].toLowerCase()
}

/**
 * How well one query token matches one text: 0 is no match; exact > prefix > word start >
 * substring > scattered letters (fewer gaps and more word starts score higher).
 */
export function matchScore(text: string, token: string): number {
  if (!token) return 0
  const lower = text.toLowerCase()
  if (lower === token) return 100
  if (lower.startsWith(token)) return 80 + Math.min(10, (token.length / lower.length) * 10)
  let at = lower.indexOf(token)
  while (at > 0 && !isBoundary(text, at)) at = lower.indexOf(token, at + 1)
  if (at > 0) return 60
  if (lower.includes(token)) return 40
  // Scattered: every letter in order, e.g. `kc` in `kick client`.
  let score = 0
  let from = 0
  let previous = -2
  for (const ch of token) {
    const found = lower.indexOf(ch, from)
    if (found < 0) return 0
    score += found === previous + 1 ? 3 : isBoundary(text, found) ? 2 : 1
    previous = found
    from = found + 1
  }
  return Math.min(35, 5 + (score / token.length) * 10)
}

const FIELD_WEIGHT = { title: 1, id: 0.9, alias: 0.8 } as const
/** matchScore's best for letters scattered through a text; anything above is a contiguous match. */
const SCATTERED_MAX = 35
/** matchScore's least for a match at the start of a word (a prefix, a word start or the whole text). */
const WORD_START_MIN = 60

/**
 * How well an item matches every token; `scattered` when some token only matched as scattered
 * letters, `wordStarts` when every token matched at the start of a word.
 */
function itemScore(item: RankItem, tokens: string[]): { score: number; scattered: boolean; wordStarts: boolean } {
  let total = 0
  let scattered = false
  let wordStarts = true
  for (const token of tokens) {
    let best = 0
    let bestRaw = 0
    const consider = (text: string, weight: number) => {
      const raw = matchScore(text, token)
      if (raw * weight > best) [best, bestRaw] = [raw * weight, raw]
    }
    for (const title of item.titles) consider(title, FIELD_WEIGHT.title)
    consider(item.id, FIELD_WEIGHT.id)
    for (const alias of item.aliases ?? []) consider(alias, FIELD_WEIGHT.alias)
    if (best === 0) return { score: 0, scattered: false, wordStarts: false } // every word of the query must match somewhere
    if (bestRaw <= SCATTERED_MAX) scattered = true
    if (bestRaw < WORD_START_MIN) wordStarts = false
    total += best
  }
  return { score: total / tokens.length, scattered, wordStarts }
}

/** Extra score for recently used commands: the most recent gets the most. */
function recencyBonus(position: number): number {
  return position < 0 ? 0 : 20 - position * 2
}

/** How often and when a command ran, from the command history. */
export interface Usage {
  count: number
  /** Epoch ms of the latest run. */
  last: number
}

/** Counts runs per command id over history entries (any order). */
export function usageOf(entries: readonly { id: string; time: number }[]): Map<string, Usage> {
  const usage = new Map<string, Usage>()
  for (const { id, time } of entries) {
    const known = usage.get(id)
    if (known) {
      known.count++
      if (time > known.last) known.last = time
    } else usage.set(id, { count: 1, last: time })
  }
  return usage
}

/** Ids by latest run, most recent first (the palette's 'Recently used'). */
export function recentOf(usage: ReadonlyMap<string, Usage>, max = 8): string[] {
  return [...usage].sort((a, b) => b[1].last - a[1].last).slice(0, max).map(([id]) => id)
}

/** Extra score for frequently used commands, growing slowly: 1 run +5, 3 runs +10, 7 runs +15 (most). */
function frequencyBonus(usage: Usage | undefined): number {
  return usage ? Math.min(15, 5 * Math.log2(1 + usage.count)) : 0
}

/**
 * Orders items for a query. With an empty query every item is kept: recently used first (most
 * recent first), then frequently used ones (most runs first), then the rest in their given order.
 * With a query only matches are kept, best first; recent and frequent use add a bonus (so a
 * command used every day beats an equally good match never used); ties keep the given order.
 * Letters scattered through a text are a fallback: once some command has every word of the query
 * at the start of one of its words (`ban` in `banned.create`), scattered matches (`ban` in
 * `/dashBoArd/Nodes`) are left out, however often they were used.
 */
export function rank<T extends RankItem>(
  items: readonly T[],
  query: string,
  recent: readonly string[] = [],
  usage?: ReadonlyMap<string, Usage>,
): Ranked<T>[] {
  const tokens = query.trim().toLowerCase().split(/\s+/).filter(Boolean)
  const positions = new Map(recent.map((id, i) => [id, i]))
  let ranked: (Ranked<T> & { index: number; count: number; scattered: boolean; wordStarts: boolean })[] = []
  items.forEach((item, index) => {
    const position = positions.get(item.id) ?? -1
    const used = usage?.get(item.id)
    if (tokens.length === 0) {
      ranked.push({ item, score: 0, recent: position, index, count: used?.count ?? 0, scattered: false, wordStarts: false })
      return
    }
    const { score, scattered, wordStarts } = itemScore(item, tokens)
    if (score > 0)
      ranked.push({ item, score: score + recencyBonus(position) + frequencyBonus(used), recent: position, index, count: used?.count ?? 0, scattered, wordStarts })
  })
  if (ranked.some((r) => r.wordStarts)) ranked = ranked.filter((r) => !r.scattered)
  ranked.sort((a, b) => {
    if (tokens.length === 0) {
      const ra = a.recent < 0 ? Infinity : a.recent
      const rb = b.recent < 0 ? Infinity : b.recent
      if (ra !== rb) return ra - rb
      if (a.count !== b.count) return b.count - a.count
    } else if (a.score !== b.score) return b.score - a.score
    return a.index - b.index
  })
  return ranked.map(({ item, score, recent }) => ({ item, score, recent }))
}

/** Puts an id at the front of the recent list, without duplicates, keeping at most `max`. */
export function pushRecent(recent: readonly string[], id: string, max = 8): string[] {
  return [id, ...recent.filter((r) => r !== id)].slice(0, max)
}
