// The subscriptions table with 100,000 rows, in a real Chromium page. 100 MQTT clients subscribe
// 1,000 topics each on the embedded broker; the page shows /subscriptions/subscription and the
// operator picks "All" in the page-size menu, so the list-all helper reads every page (1000 a
// request) into the one virtualized table. Prints how long the reading and the first render took,
// the longest main-thread task meanwhile, then, for three ways of scrolling through all 100,000
// rows, the frames and the main-thread work per frame: scroll event, React render, style and layout
// (forced at the end of each frame's callback, so only paint is outside the figure); frames over
// 16 ms of work and frames that came later than 1.5 refresh intervals after the one before (on a
// busy machine those include waiting for the CPU). Then the JS heap and DOM size.
// Asserts nothing.
//   BENCH_SUBSCRIPTIONS=<n>   rows (default 100,000; a multiple of 1,000)
//   BENCH_CPU_PROF=1          a CPU profile of the page per way of scrolling, its top functions printed
//   BENCH_TRACE=<prefix>      a Chrome trace of 30 frames per way of scrolling, written to <prefix>-<way>.json
import { cpus, loadavg } from 'node:os'
import mqtt, { type MqttClient } from 'mqtt'
import type { Page } from 'playwright-core'
import { importChromium, launchChromium, logIn, longTaskProbe, startConsoleServer } from './browser.ts'
import { profileSummary, type CpuProfile } from './cpuProfile.ts'
import { quantiles } from './quantiles.ts'

const ROWS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100_000)
const PER_CLIENT = 1000
const PER_PACKET = 250
const ROW_HEIGHT = 36

async function subscribeMany(port: number, rows: number): Promise<MqttClient[]> {
  const clients: MqttClient[] = []
  for (let c = 0; c < rows / PER_CLIENT; c++) {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: `bench-sub-${String(c).padStart(3, '0')}`, reconnectPeriod: 0 })
    clients.push(client)
    for (let from = 0; from < PER_CLIENT; from += PER_PACKET) {
      const topics = Object.fromEntries(
        Array.from({ length: PER_PACKET }, (_, i) => [`bench/site-${c}/device-${from + i}/telemetry`, { qos: ((from + i) % 3) as 0 | 1 | 2 }]),
      )
      await client.subscribeAsync(topics)
    }
  }
  return clients
}

interface ScrollResult {
  frames: number
  work: number[]
  intervals: number[]
  rowsInDom: number
  reachedEnd: boolean
}

/**
 * Scrolls the table's scroller by a step per animation frame until it reaches the end (or
 * `maxFrames`). Work per frame is timed from the frame's scroll event (a capturing listener on the
 * window runs before the virtualizer's) to the end of style and layout, which the frame callback
 * forces; so it is the main thread's own time for the frame, without the wait for it to start.
 */
function scrollThrough(page: Page, mode: 'steady' | 'fling' | 'jump', maxFrames: number): Promise<ScrollResult> {
  return page.evaluate(
    ({ mode, maxFrames }) =>
      new Promise<ScrollResult>((resolve) => {
        const scroller = document.querySelector<HTMLElement>('.subscriptions-page .dt-scroll')!
        scroller.scrollTop = 0
        const work: number[] = []
        const intervals: number[] = []
        let scrolledAt: number | undefined
        const onScroll = () => (scrolledAt ??= performance.now())
        window.addEventListener('scroll', onScroll, { capture: true })
        let last = 0
        let frame = 0
        // A fixed sequence of "random" positions, the same on every run.
        let seed = 7
        const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647
        const max = () => scroller.scrollHeight - scroller.clientHeight
        const tick = (time: number) => {
          void scroller.offsetHeight
          if (scrolledAt !== undefined) work.push(performance.now() - scrolledAt)
          scrolledAt = undefined
          if (last) intervals.push(time - last)
          last = time
          if (frame++ >= maxFrames || (mode !== 'jump' && scroller.scrollTop >= max() - 1)) {
            window.removeEventListener('scroll', onScroll, { capture: true })
            resolve({ frames: work.length, work, intervals, rowsInDom: scroller.querySelectorAll('[role="row"]').length - 1, reachedEnd: scroller.scrollTop >= max() - 1 })
            return
          }
          if (mode === 'steady') scroller.scrollTop += 120
          else if (mode === 'fling') scroller.scrollTop += 3600
          else scroller.scrollTop = Math.floor(next() * max())
          requestAnimationFrame(tick)
        }
        requestAnimationFrame(tick)
      }),
    { mode, maxFrames },
  )
}

export default async function run(): Promise<void> {
  const chromium = await importChromium('subscriptions table bench')
  if (!chromium) return
  const server = await startConsoleServer('subscriptions')
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined
  let clients: MqttClient[] = []
  try {
    const subscribing = performance.now()
    clients = await subscribeMany(server.mqttPort, ROWS)
    const subscribeMs = performance.now() - subscribing
    browser = await launchChromium(chromium)
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.addInitScript(longTaskProbe)
    const base = `http://127.0.0.1:${server.port}`
    await logIn(page, base)
    await page.goto(`${base}/subscriptions/subscription`)
    await page.locator('.subscriptions-page [role="row"][aria-rowindex="2"]').waitFor()
    const cdp = await page.context().newCDPSession(page)
    const total = ROWS.toLocaleString('en')
    console.log(
      `Chromium ${browser.version()}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}; ${total} subscriptions made by ${ROWS / PER_CLIENT} MQTT clients in ${(subscribeMs / 1000).toFixed(1)} s; viewport 1400×900, rows ${ROW_HEIGHT} px`,
    )

    // "All" in the page-size menu: every page read, then one table of all the rows.
    const started = await page.evaluate(() => {
      performance.clearResourceTimings()
      ;(window as unknown as { __bench: { longTasks: unknown[] } }).__bench.longTasks = []
      return performance.now()
    })
    await page.locator('.subscriptions-page .dt-size').selectOption('all')
    const shownAt = await page.waitForFunction(
      (total) => {
        const pager = document.querySelector('.subscriptions-page .dt-pager')?.textContent ?? ''
        const reading = document.querySelector('.subscriptions-page [role="status"]')
        return !reading && pager.includes(total) && document.querySelector('.subscriptions-page [role="row"][aria-rowindex="2"]') ? performance.now() : 0
      },
      total,
      { polling: 'raf', timeout: 180_000 },
    )
    const load = await page.evaluate((started) => {
      const requests = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes('/api/v5/subscriptions')) as PerformanceResourceTiming[]
      const lastResponse = Math.max(...requests.map((r) => r.responseEnd))
      const tasks = (window as unknown as { __bench: { longTasks: { start: number; duration: number }[] } }).__bench.longTasks.filter((t) => t.start >= started)
      return {
        requests: requests.length,
        readMs: lastResponse - started,
        lastResponse,
        longest: Math.max(0, ...tasks.map((t) => t.duration)),
        longTasks: tasks.length,
      }
    }, started)
    const shown = (await shownAt.jsonValue()) as number
    const rowsInTable = await page.evaluate(() => document.querySelector('.subscriptions-page .dt-body')?.getBoundingClientRect().height ?? 0)

    console.table([
      {
        case: `"All": ${total} rows read and shown`,
        requests: load.requests,
        'read ms (select to last response)': Math.round(load.readMs),
        'render ms (last response to rows painted)': Math.round(shown - load.lastResponse),
        'total ms': Math.round(shown - started),
        'long tasks': load.longTasks,
        'longest task ms': Math.round(load.longest),
        'rows in the table': Math.round(rowsInTable / ROW_HEIGHT).toLocaleString('en'),
      },
    ])

    const modes = [
      { mode: 'steady' as const, label: 'steady: 120 px a frame (≈200 rows/s) for 900 frames', frames: 900 },
      { mode: 'fling' as const, label: `fling: 3,600 px a frame (100 new rows each frame) to the end`, frames: 5000 },
      { mode: 'jump' as const, label: 'jump: a new random position every frame, 600 frames', frames: 600 },
    ]
    const rows: Record<string, string | number | boolean>[] = []
    for (const { mode, label, frames } of modes) {
      if (process.env.BENCH_CPU_PROF) {
        await cdp.send('Profiler.enable')
        await cdp.send('Profiler.start')
      }
      await cdp.send('Performance.enable')
      const before = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]))
      if (process.env.BENCH_TRACE) await browser.startTracing(page, { path: `${process.env.BENCH_TRACE}-${mode}.json`, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.invalidationTracking', 'blink'] })
      const result = await scrollThrough(page, mode, process.env.BENCH_TRACE ? 30 : frames)
      if (process.env.BENCH_TRACE) await browser.stopTracing()
      const after = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]))
      // Chromium's own totals (seconds) over the run, per frame in ms.
      const perFrame = (name: string) => +(((after[name] - before[name]) * 1000) / Math.max(1, result.frames)).toFixed(1)
      if (process.env.BENCH_CPU_PROF) {
        const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile }
        const top = profileSummary(profile, 12)
        console.log(`${mode}: CPU by function\n  ${top.functions.join('\n  ')}`)
      }
      const budget = Math.min(...result.intervals.filter((ms) => ms > 4)) || 16.7
      rows.push({
        case: label,
        frames: result.frames,
        'work >16 ms': result.work.filter((ms) => ms > 16).length,
        ...Object.fromEntries(Object.entries(quantiles(result.work)).map(([k, v]) => [`work ${k}`, +v.toFixed(1)])),
        'script ms/frame': perFrame('ScriptDuration'),
        'style ms/frame': perFrame('RecalcStyleDuration'),
        'layout ms/frame': perFrame('LayoutDuration'),
        'late frames (interval >1.5×)': result.intervals.filter((ms) => ms > budget * 1.5).length,
        'interval max ms': +Math.max(...result.intervals).toFixed(1),
        'rows in DOM': result.rowsInDom,
        'reached end': result.reachedEnd,
      })
    }
    console.table(rows)

    for (let i = 0; i < 2; i++) await cdp.send('HeapProfiler.collectGarbage')
    const { usedSize } = await cdp.send('Runtime.getHeapUsage')
    const { nodes } = await cdp.send('Memory.getDOMCounters')
    console.table([{ case: `after scrolling, ${total} rows loaded`, 'JS heap MB (after GC)': +(usedSize / 2 ** 20).toFixed(1), 'DOM nodes': nodes }])
  } finally {
    await browser?.close()
    await Promise.all(clients.map((client) => client.endAsync(true)))
    await server.close()
  }
}
