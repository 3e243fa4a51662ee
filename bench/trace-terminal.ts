// The second table of bench/trace.bench.ts: how fast the Log Trace detail screen draws a followed
// trace in Chromium. The console serves itself (in this process); a topic trace on `bench/lat` is
// created over REST, the detail screen opens on it (following), and a publisher in a process of its
// own (bench/mqtt-load.ts, QoS 0 at a steady rate, one subscriber) publishes for a few seconds. The
// page counts the lines it handed to its xterm view (the screen's line count) and the main-thread
// tasks over 50 ms (PerformanceObserver 'longtask'). Rates stay under the screen's 5 MB view limit
// (beyond it the screen stops and offers the download). Asserts nothing.
//   BENCH_TRACE_RATES=<a,b,..>   messages per second to publish (default 200,1000,2000,4000)
import { performance } from 'node:perf_hooks'
import type { Page } from 'playwright-core'
import { importChromium, launchChromium, logIn, longTaskProbe, startConsoleServer } from './browser.ts'
import { load, type Target } from './broker-targets.ts'
import { restOf } from './rest.ts'

const RATES = (process.env.BENCH_TRACE_RATES ?? '200,1000,2000,4000').split(',').map(Number)
const TOPIC = 'bench/lat'
/** Kept under the detail screen's 5 MB view limit: about 530 bytes of trace a message. */
const MAX_MESSAGES = 8000
/** After the publisher stops, the view has caught up once its count has not moved for this long. */
const SETTLED_MS = 2500

/** The lines the detail screen has handed to its xterm view, with the page's clock. */
function readLines(page: Page): Promise<{ lines: number; at: number }> {
  return page.evaluate(() => {
    const text = document.querySelector('[data-testid="trace-line-count"]')?.textContent ?? ''
    return { lines: Number(text.replace(/\D/g, '') || 0), at: performance.now() }
  })
}

interface Sample {
  lines: number
  at: number
}

/** Samples the line count every 100 ms until `done` settles and the count has then stood still for SETTLED_MS. */
async function sampleUntilSettled(page: Page, done: Promise<unknown>): Promise<Sample[]> {
  let finished = false
  void done.finally(() => (finished = true))
  const samples: Sample[] = []
  let movedAt = performance.now()
  for (;;) {
    const sample = await readLines(page)
    if (samples.length === 0 || sample.lines !== samples[samples.length - 1].lines) movedAt = performance.now()
    samples.push(sample)
    if (finished && performance.now() - movedAt > SETTLED_MS) return samples
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export async function terminalTable(): Promise<void> {
  const chromium = await importChromium('trace terminal bench')
  if (!chromium) return
  const server = await startConsoleServer('trace')
  const browser = await launchChromium(chromium)
  try {
    const rest = await restOf({ httpPort: server.port })
    // The publisher's target: the broker is this process (its CPU is not shown here).
    const target = { name: 'console', port: server.mqttPort, pid: process.pid, crashed: new Promise<string>(() => {}) } as Target
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.addInitScript(longTaskProbe)
    const base = `http://127.0.0.1:${server.port}`
    await logIn(page, base)
    const rows: Record<string, string | number>[] = []
    for (const rate of RATES) {
      const name = `bench_follow_${rate}`
      await rest('POST', '/trace', { name, type: 'topic', topic: TOPIC, end_at: Math.floor(Date.now() / 1000) + 3600 })
      await page.goto(`${base}/log-trace/detail/${name}`)
      await page.getByTestId('trace-log-view').locator('.xterm-screen').waitFor()
      // The publisher publishes through a 1 s warm-up and the measured seconds.
      const seconds = Math.max(1, Math.min(5, Math.floor(MAX_MESSAGES / rate) - 1))
      const published = load(target, { kind: 'latency', port: server.mqttPort, qos: 0, rate, seconds })
      const samples = await sampleUntilSettled(page, published)
      await published
      const traces = (await rest('GET', '/trace')) as Array<{ name: string; log_size: Record<string, number> }>
      const bytes = Object.values(traces.find((t) => t.name === name)?.log_size ?? {}).reduce((a, b) => a + b, 0)
      const first = samples.find((s) => s.lines > 0)
      const last = samples.find((s) => s.lines === samples[samples.length - 1].lines)!
      const drawingMs = first ? last.at - first.at : 0
      const longTasks = await page.evaluate(
        ([from, to]) => (window as unknown as { __bench: { longTasks: { start: number; duration: number }[] } }).__bench.longTasks.filter((t) => t.start >= from && t.start <= to),
        [first?.at ?? 0, last.at] as const,
      )
      const tooLong = await page.getByRole('alert').count()
      rows.push({
        'messages/s published': rate,
        'publish s': seconds + 1,
        'trace KB': Math.round(bytes / 1024),
        lines: last.lines,
        'lines/s offered': Math.round(last.lines / (seconds + 1)),
        'lines/s drawn': drawingMs > 0 ? Math.round((last.lines / drawingMs) * 1000) : '-',
        'first to last line s': +(drawingMs / 1000).toFixed(1),
        'tasks > 50 ms': longTasks.length,
        'longest task ms': longTasks.length ? Math.round(Math.max(...longTasks.map((t) => t.duration))) : '-',
        'view limit shown': tooLong > 0 ? 'yes' : 'no',
      })
      await rest('DELETE', `/trace/${name}`)
    }
    console.log('\nA followed trace in Chromium: the Log Trace detail screen (xterm view, following) while a QoS 0 publisher publishes on a')
    console.log(`topic trace (${TOPIC}) at each rate. lines: what the screen counted as handed to its xterm view; lines/s drawn: those lines`)
    console.log('over the time from the first to the last (the screen reads /trace/{name}/log 50 KB at a time, as 5.8\'s dashboard does).')
    console.log('An empty read waits 1 s before the next, so the first lines can come up to 1 s after the publisher started and then')
    console.log('arrive faster than offered. tasks > 50 ms: main-thread long tasks (PerformanceObserver longtask) between the first and the last line.')
    console.table(rows)
  } finally {
    await browser.close()
    await server.close()
  }
}
