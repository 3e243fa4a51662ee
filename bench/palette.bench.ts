// Palette filter time per keystroke with every command registered and 10,000 history entries:
// (1) the ranking the palette runs on each keystroke (rank + grouping, both languages' titles),
// in Node; (2) a real Chromium page typing into the palette, from keydown to the next frame after
// the list changed (performance marks in the page). Prints tables; asserts nothing.
import { performance } from 'node:perf_hooks'
import { importChromium, launchChromium, logIn, startConsoleServer } from './browser.ts'
import { describeArgs, listCommands } from '../commands/registry.ts'
import { rank, usageOf, recentOf, type RankItem } from '../src/app/palette/rank.ts'
import en from '../locales/en.json' with { type: 'json' }
import zh from '../locales/zh.json' with { type: 'json' }
import { quantiles } from './quantiles.ts'

const HISTORY = 10_000
const REPEAT = 300
/** What an operator types, one keystroke at a time (each prefix is measured). */
const QUERIES = ['kick client', 'go subscr', '踢除客户端', 'banned.delete', 'zzzz']

type Tree = { [key: string]: string | Tree }
function lookup(tree: Tree, key: string): string {
  let node: string | Tree | undefined = tree
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined
  return typeof node === 'string' ? node : key
}

interface Entry extends RankItem {
  group: string
}

function entries(): Entry[] {
  return listCommands().map((command) => ({
    id: command.id,
    titles: [...new Set([lookup(en as Tree, command.title), lookup(zh as Tree, command.title)])],
    aliases: command.aliases,
    group: command.group,
  }))
}

/** 10,000 runs of random commands over the last 30 days, as the history keeps them. */
function history(ids: string[], count: number, now = Date.now()) {
  let seed = 42
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
  return Array.from({ length: count }, (_, i) => ({
    seq: i + 1,
    id: ids[Math.floor(random() ** 2 * ids.length)],
    args: {},
    ok: true,
    time: now - (count - i) * 250_000,
    source: 'palette' as const,
  }))
}

/** What the palette does per keystroke: rank, then group the matches (PaletteHost buildSections). */
function filter(items: Entry[], query: string, recent: string[], usage: ReturnType<typeof usageOf>) {
  const ranked = rank(items, query, recent, usage)
  const groups = new Map<string, Entry[]>()
  for (const { item } of ranked) {
    const list = groups.get(item.group) ?? []
    list.push(item)
    groups.set(item.group, list)
  }
  return groups
}

function nodeTable() {
  const items = entries()
  const list = history(items.map((i) => i.id), HISTORY)
  const openSamples: number[] = []
  let usage = usageOf(list)
  let recent = recentOf(usage)
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now()
    usage = usageOf(list)
    recent = recentOf(usage)
    openSamples.push(performance.now() - t0)
  }
  const rows: Record<string, string | number>[] = [
    { case: `palette opens: run counts over ${HISTORY.toLocaleString('en')} history entries`, keystrokes: 1, ...quantiles(openSamples) },
  ]
  for (const query of QUERIES) {
    const samples: number[] = []
    let matches = 0
    for (let r = 0; r < REPEAT; r++)
      for (let n = 1; n <= query.length; n++) {
        const t0 = performance.now()
        const groups = filter(items, query.slice(0, n), recent, usage)
        samples.push(performance.now() - t0)
        if (n === query.length) matches = [...groups.values()].reduce((sum, g) => sum + g.length, 0)
      }
    rows.push({ case: `type "${query}" (${matches} matches at the end)`, keystrokes: query.length, ...quantiles(samples) })
  }
  console.log(`rank + group per keystroke in Node: ${items.length} commands (${listCommands().filter((c) => describeArgs(c).length).length} with arguments), ${HISTORY.toLocaleString('en')} history entries, ${REPEAT} repetitions`)
  console.table(rows)
}

async function browserTable() {
  const chromium = await importChromium('browser measurement')
  if (!chromium) return
  const server = await startConsoleServer('palette')
  const browser = await launchChromium(chromium)
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    const base = `http://127.0.0.1:${server.port}`
    await logIn(page, base)
    const ids = listCommands().map((c) => c.id)
    await page.evaluate((json) => localStorage.setItem('commandHistory', json), JSON.stringify(history(ids, HISTORY)))
    await page.goto(`${base}/clients/list`)
    await page.getByRole('button', { name: 'Open the command palette' }).waitFor()

    const rows: Record<string, string | number>[] = []
    const allSamples: number[] = []
    const allOpens: number[] = []
    for (const query of QUERIES) {
      // In the page: from the Ctrl+K keydown (its event time: the app's own listener runs before any
      // the bench adds, and React renders in the microtasks after it) to the first animation frame
      // after the input is in the DOM.
      await page.evaluate(() => {
        const w = window as unknown as { __paletteOpen?: Promise<number> }
        w.__paletteOpen = new Promise((resolve) => {
          let pressedAt = 0
          const onKey = (event: KeyboardEvent) => {
            if (event.key !== 'k' || !event.ctrlKey) return
            pressedAt = event.timeStamp
            window.removeEventListener('keydown', onKey, true)
          }
          window.addEventListener('keydown', onKey, true)
          const observer = new MutationObserver(() => {
            if (!document.querySelector('.palette-input')) return
            observer.disconnect()
            requestAnimationFrame(() => resolve(performance.now() - pressedAt))
          })
          observer.observe(document.body, { childList: true, subtree: true })
        })
      })
      const opened = performance.now()
      await page.keyboard.press('Control+k')
      await page.locator('.palette-input').waitFor()
      const openMs = performance.now() - opened
      const openInPage = await page.evaluate(() => (window as unknown as { __paletteOpen: Promise<number> }).__paletteOpen)
      // In the page: the keydown (or, for text typed through an input method such as Chinese, the
      // beforeinput) marks the start; the end is the next animation frame after React handled the
      // input event (it renders a discrete input synchronously, so the new list's first rows, more
      // than the list shows, are in the DOM and painted in that frame; the rest follow after it).
      await page.evaluate(() => {
        const w = window as unknown as { __paletteLatency: number[] }
        w.__paletteLatency = []
        const input = document.querySelector('.palette-input')!
        let n = 0
        let pending: string | null = null
        // From the event's own time, which is when the key reached the page, before any listener ran.
        const start = (event: Event) => {
          if (pending) return
          pending = `palette-key-${++n}`
          performance.mark(pending, { startTime: event.timeStamp })
        }
        input.addEventListener('keydown', start, { capture: true })
        input.addEventListener('beforeinput', start, { capture: true })
        const onInput = () => {
          const name = pending
          pending = null
          if (!name) return
          requestAnimationFrame(() => w.__paletteLatency.push(performance.measure(`${name}-rendered`, name).duration))
        }
        // The previous opening's listener goes; only this input's keystrokes count.
        const holder = window as unknown as { __paletteOnInput?: () => void }
        if (holder.__paletteOnInput) document.removeEventListener('input', holder.__paletteOnInput)
        holder.__paletteOnInput = onInput
        document.addEventListener('input', onInput)
      })
      let typed = 0
      for (const ch of query) {
        await page.keyboard.type(ch)
        typed++
        // One keystroke at a time, as a person types: wait for its frame before the next.
        await page.waitForFunction((count) => (window as unknown as { __paletteLatency: number[] }).__paletteLatency.length >= count, typed, { timeout: 5000 })
      }
      const samples = await page.evaluate(() => (window as unknown as { __paletteLatency: number[] }).__paletteLatency)
      const shown = await page.locator('.palette-item').count()
      await page.keyboard.press('Escape')
      await page.locator('.palette-input').waitFor({ state: 'detached' })
      allSamples.push(...samples)
      allOpens.push(openInPage)
      rows.push({
        case: `type "${query}" (${shown} rows shown)`,
        keystrokes: query.length,
        measured: samples.length,
        ...(samples.length ? quantiles(samples) : {}),
        'open ms (Ctrl+K keydown to the frame with the input)': +openInPage.toFixed(1),
        'open ms (seen from Node)': +openMs.toFixed(1),
      })
    }
    rows.push({
      case: 'every keystroke above; open: the slowest opening',
      keystrokes: allSamples.length,
      measured: allSamples.length,
      ...quantiles(allSamples),
      'open ms (Ctrl+K keydown to the frame with the input)': +Math.max(...allOpens).toFixed(1),
    })
    console.log(`Chromium, keydown to the next animation frame after the palette handled the input: ${ids.length} commands, ${HISTORY.toLocaleString('en')} history entries (localStorage keeps the newest ${'1,000'})`)
    console.table(rows)
  } finally {
    await browser.close()
    await server.close()
  }
}

export default async function run(): Promise<void> {
  nodeTable()
  await browserTable()
}
