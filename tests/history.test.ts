import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as v from 'valibot'
import { createStore } from 'jotai'
import { defineCommand, type UiEffects } from '../commands/define.ts'
import { ApiError } from '../contract/api-error.ts'
import { executeCommand, type RunnerDeps } from '../src/app/commands/runner.ts'
import {
  HISTORY_KEY,
  HISTORY_LIMIT,
  appendEntry,
  entriesInRange,
  historyScript,
  parseHistory,
  serializeHistory,
  summarizeResult,
  type HistoryEntry,
  type HistoryInput,
} from '../src/state/history.ts'
import { createTerminalLog } from '../src/state/terminalLog.ts'

const input = (id: string, args: Record<string, unknown> = {}, ok = true): HistoryInput => ({ id, args, ok, source: 'palette' })

function build(count: number, limit = HISTORY_LIMIT): HistoryEntry[] {
  let list: HistoryEntry[] = []
  for (let i = 0; i < count; i++) list = appendEntry(list, { ...input('client.kick', { clientid: `c${i}` }), time: 1_000 + i }, limit)
  return list
}

/** A localStorage stand-in that refuses values longer than `quota` characters, as browsers do. */
function memoryStorage(quota = Infinity): Storage {
  const map = new Map<string, string>()
  return {
    get length() {
      return map.size
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => {
      if (value.length > quota) throw new DOMException('quota', 'QuotaExceededError')
      map.set(key, String(value))
    },
    removeItem: (key) => void map.delete(key),
    clear: () => map.clear(),
  }
}

describe('history bounding', () => {
  it('numbers entries one after another and keeps the newest 1,000, dropping the oldest', () => {
    const list = build(HISTORY_LIMIT + 5)
    expect(list).toHaveLength(HISTORY_LIMIT)
    expect(list[0].seq).toBe(6)
    expect(list[0].args).toEqual({ clientid: 'c5' })
    expect(list.at(-1)!.seq).toBe(HISTORY_LIMIT + 5)
    expect(list.at(-1)!.args).toEqual({ clientid: `c${HISTORY_LIMIT + 4}` })
  })

  it('keeps numbering after the oldest entries are dropped, so numbers are never reused', () => {
    const list = appendEntry(build(3, 3), input('banned.clear'), 3)
    expect(list.map((e) => e.seq)).toEqual([2, 3, 4])
  })

  it('bounds a stored history that is longer than the limit to its newest entries', () => {
    const stored = serializeHistory(build(50))
    expect(parseHistory(stored, 10).map((e) => e.seq)).toEqual([41, 42, 43, 44, 45, 46, 47, 48, 49, 50])
  })
})

describe('navigation in the history', () => {
  const go = (id: string, time: number): HistoryInput => ({ ...input(id), source: 'shortcut', time })

  it('keeps only the latest of several navigations in a row, so moving around does not flood the operations', () => {
    let list = appendEntry([], input('client.kick', { clientid: 'a' }))
    for (const [i, id] of ['go.clients', 'go.subscriptions', 'go.topics', 'go.retained'].entries()) list = appendEntry(list, go(id, 2_000 + i))
    list = appendEntry(list, input('banned.clear'))
    list = appendEntry(list, go('go.nodes', 3_000))
    expect(list.map((e) => e.id)).toEqual(['client.kick', 'go.retained', 'banned.clear', 'go.nodes'])
    // Numbers stay in order and are never given to another entry.
    expect(list.map((e) => e.seq)).toEqual([1, 5, 6, 7])
  })

  it('collapses the navigation runs of a history stored before, keeping the last of each', () => {
    const stored = [
      { seq: 1, id: 'go.clients', args: {}, ok: true, time: 1, source: 'shortcut' },
      { seq: 2, id: 'go.topics', args: {}, ok: true, time: 2, source: 'palette' },
      { seq: 3, id: 'client.kick', args: { clientid: 'a' }, ok: true, time: 3, source: 'button' },
      { seq: 4, id: 'go.nodes', args: {}, ok: true, time: 4, source: 'shortcut' },
    ]
    expect(parseHistory(JSON.stringify(stored)).map((e) => e.seq)).toEqual([2, 3, 4])
  })
})

describe('history serialisation', () => {
  it('round-trips entries with their validated arguments, outcome, time and source', () => {
    let list: HistoryEntry[] = []
    list = appendEntry(list, { id: 'message.publish', args: { topic: 'a b', qos: 1, retain: true, properties: { 'user_properties': { k: 'v' } } }, ok: true, result: { id: 'abc' }, source: 'script', time: 5 })
    list = appendEntry(list, { id: 'client.kick', args: { clientid: 'gone' }, ok: false, message: 'CLIENTID_NOT_FOUND: Client ID not found', source: 'button', time: 6 })
    const back = parseHistory(serializeHistory(list))
    expect(back).toEqual(list)
    expect(back[0]).toEqual({
      seq: 1,
      id: 'message.publish',
      args: { topic: 'a b', qos: 1, retain: true, properties: { user_properties: { k: 'v' } } },
      ok: true,
      summary: '{"id":"abc"}',
      time: 5,
      source: 'script',
    })
    expect(back[1]).toMatchObject({ seq: 2, ok: false, message: 'CLIENTID_NOT_FOUND: Client ID not found', source: 'button' })
    expect(back[1].summary).toBeUndefined()
  })

  it('stores arguments without undefined fields, as JSON keeps them', () => {
    const [entry] = appendEntry([], input('banned.create', { as: 'clientid', who: 'x', reason: undefined }))
    expect(entry.args).toEqual({ as: 'clientid', who: 'x' })
    expect(Object.keys(entry.args)).toEqual(['as', 'who'])
  })

  it('reads damaged stores as empty and drops entries that do not fit the schema', () => {
    expect(parseHistory(null)).toEqual([])
    expect(parseHistory('not json')).toEqual([])
    expect(parseHistory('{"seq":1}')).toEqual([])
    const good = build(2)
    const mixed = JSON.stringify([good[1], { seq: 'x' }, null, { ...good[0], source: 'link' }, good[0], good[1]])
    // Sorted by number, duplicates and unknown sources dropped.
    expect(parseHistory(mixed)).toEqual(good)
  })

  it('summarises results in one bounded line and says nothing for empty ones', () => {
    expect(summarizeResult(undefined)).toBeUndefined()
    expect(summarizeResult(null)).toBeUndefined()
    expect(summarizeResult({})).toBeUndefined()
    expect(summarizeResult('done')).toBe('done')
    expect(summarizeResult({ a: 'x\ny' })).toBe('{"a":"x\\ny"}')
    const long = summarizeResult('x'.repeat(500), 20)!
    expect(long).toHaveLength(20)
    expect(long.endsWith('…')).toBe(true)
  })
})

describe('history as a script', () => {
  const format = (id: string, args: Record<string, unknown>) => [id, ...Object.entries(args).map(([k, val]) => `${k}=${String(val)}`)].join(' ')

  it('selects a range by number either way round, open ends reaching the ends', () => {
    const list = build(6)
    expect(entriesInRange(list, 2, 4).map((e) => e.seq)).toEqual([2, 3, 4])
    expect(entriesInRange(list, 4, 2).map((e) => e.seq)).toEqual([2, 3, 4])
    expect(entriesInRange(list, 5).map((e) => e.seq)).toEqual([5, 6])
    expect(entriesInRange(list, undefined, 2).map((e) => e.seq)).toEqual([1, 2])
    expect(entriesInRange(list).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('writes the entries oldest first, a failed step under a comment saying how it failed', () => {
    let list: HistoryEntry[] = []
    list = appendEntry(list, input('banned.create', { as: 'clientid', who: 'a' }))
    list = appendEntry(list, { ...input('client.kick', { clientid: 'b' }, false), message: 'CLIENTID_NOT_FOUND:\nnot found' })
    list = appendEntry(list, input('banned.delete', { as: 'clientid', who: 'a' }))
    expect(historyScript([...list].reverse(), format)).toBe(
      ['banned.create as=clientid who=a', '# failed: CLIENTID_NOT_FOUND: not found', 'client.kick clientid=b', 'banned.delete as=clientid who=a'].join('\n'),
    )
  })
})

describe('the stored history', () => {
  beforeEach(() => {
    vi.resetModules()
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('persists each run in localStorage and reads it back on the next page load', async () => {
    vi.stubGlobal('localStorage', memoryStorage())
    const first = await import('../src/state/history.ts')
    const store = createStore()
    first.recordHistory(store, input('client.kick', { clientid: 'a' }))
    first.recordHistory(store, { ...input('client.kick', { clientid: 'b' }, false), message: 'nope' })
    expect(store.get(first.historyAtom).map((e) => e.seq)).toEqual([1, 2])

    vi.resetModules()
    const reloaded = await import('../src/state/history.ts')
    const fresh = createStore()
    const entries = fresh.get(reloaded.historyAtom)
    expect(entries.map((e) => [e.seq, e.id, e.args, e.ok, e.message])).toEqual([
      [1, 'client.kick', { clientid: 'a' }, true, undefined],
      [2, 'client.kick', { clientid: 'b' }, false, 'nope'],
    ])
  })

  it('does not record the history commands themselves, nor opening the script view', async () => {
    vi.stubGlobal('localStorage', memoryStorage())
    const history = await import('../src/state/history.ts')
    const store = createStore()
    history.recordHistory(store, input('client.kick', { clientid: 'a' }))
    expect(history.recordHistory(store, input('history.copy', { from: 1 }))).toBeUndefined()
    expect(history.recordHistory(store, input('script.open'))).toBeUndefined()
    expect(store.get(history.historyAtom).map((e) => e.id)).toEqual(['client.kick'])
  })

  it('keeps entries another tab stored since this page loaded', async () => {
    const storage = memoryStorage()
    vi.stubGlobal('localStorage', storage)
    const history = await import('../src/state/history.ts')
    const store = createStore()
    history.recordHistory(store, input('client.kick', { clientid: 'mine' }))
    // The other tab appended to what it read from storage.
    storage.setItem(HISTORY_KEY, serializeHistory(appendEntry(parseHistory(storage.getItem(HISTORY_KEY)), input('banned.clear'))))
    history.recordHistory(store, input('client.kick', { clientid: 'mine again' }))
    expect(store.get(history.historyAtom).map((e) => [e.seq, e.id])).toEqual([
      [1, 'client.kick'],
      [2, 'banned.clear'],
      [3, 'client.kick'],
    ])
  })

  it('drops the oldest entries when the store is full rather than losing the new one', async () => {
    // Room for a few entries only (each is about 100 characters of JSON).
    vi.stubGlobal('localStorage', memoryStorage(700))
    const history = await import('../src/state/history.ts')
    const store = createStore()
    for (let i = 0; i < 20; i++) history.recordHistory(store, input('client.kick', { clientid: `client-${i}` }))
    const kept = store.get(history.historyAtom)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(20)
    expect(kept.at(-1)!.args).toEqual({ clientid: 'client-19' })
    expect(parseHistory(localStorage.getItem(HISTORY_KEY))).toEqual(kept)
  })

  it('clears the stored and the shown history', async () => {
    vi.stubGlobal('localStorage', memoryStorage())
    const history = await import('../src/state/history.ts')
    const store = createStore()
    history.recordHistory(store, input('client.kick', { clientid: 'a' }))
    history.clearHistory(store)
    expect(store.get(history.historyAtom)).toEqual([])
    expect(localStorage.getItem(HISTORY_KEY)).toBeNull()
    expect(history.recordHistory(store, input('client.kick', { clientid: 'b' }))?.seq).toBe(1)
  })
})

describe('the runner records what ran', () => {
  const kick = defineCommand({
    id: 'client.kick',
    title: 'cmd.client.kick',
    group: 'cmdGroup.clients',
    args: v.object({ clientid: v.pipe(v.string(), v.minLength(1, 'err.required')), qos: v.optional(v.picklist([0, 1, 2]), 0) }),
    danger: true,
    run: async (_ctx, { clientid }) => {
      if (clientid === 'gone') throw new ApiError(404, 'CLIENTID_NOT_FOUND', 'Client ID not found')
      return { kicked: clientid }
    },
  })

  function deps(accept = true) {
    const recorded: HistoryInput[] = []
    const ui: UiEffects = { navigate() {}, setSetting() {}, logout: async () => {} }
    const runner: RunnerDeps = {
      ctx: { api: {} as never, ui },
      confirm: async () => accept,
      notify: () => {},
      log: createTerminalLog(10),
      t: (key) => key,
      record: (entry) => void recorded.push(entry),
    }
    return { runner, recorded }
  }

  it('records a success with the validated (coerced, defaulted) arguments, result and source', async () => {
    const { runner, recorded } = deps()
    await executeCommand(kick, { clientid: 'a' }, runner, { source: 'shortcut' })
    expect(recorded).toEqual([{ id: 'client.kick', args: { clientid: 'a', qos: 0 }, ok: true, result: { kicked: 'a' }, source: 'shortcut' }])
  })

  it('records a failure with its message, and a button run when no source is given', async () => {
    const { runner, recorded } = deps()
    await executeCommand(kick, { clientid: 'gone' }, runner)
    expect(recorded).toEqual([
      { id: 'client.kick', args: { clientid: 'gone', qos: 0 }, ok: false, message: 'CLIENTID_NOT_FOUND: Client ID not found', source: 'button' },
    ])
  })

  it('records nothing when the arguments are invalid or the confirmation is declined', async () => {
    const invalid = deps()
    await executeCommand(kick, { clientid: '' }, invalid.runner)
    expect(invalid.recorded).toEqual([])
    const declined = deps(false)
    await executeCommand(kick, { clientid: 'a' }, declined.runner)
    expect(declined.recorded).toEqual([])
  })
})
