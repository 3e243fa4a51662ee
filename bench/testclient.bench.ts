// The WebSocket test client (/websocket) under load, in a real Chromium page: the page's test client
// is subscribed to t/# (QoS 0) through the embedded broker's WebSocket listener, with the terminal
// pane open, while a publisher in its own process (bench/testclient-publisher.ts, raw MQTT over TCP)
// sends 64-byte JSON messages at increasing rates. Per rate it prints the page's long tasks
// (PerformanceObserver 'longtask'), messages sent against counted by the page (the screen's
// ws-count-received data-count), and whether the rate was sustained: every message counted within
// DRAIN_MS of the last one sent and no main-thread task over 50 ms; when a task was long, the scripts
// of the longest animation frame (PerformanceObserver 'long-animation-frame'). Then messages as fast
// as the page counts them, and the page's JS heap (after a forced GC, over CDP) after 10,000,
// 500,000 and 1,000,000 messages, with the counters checked against what was sent. Asserts nothing.
//   BENCH_RATES=1000,2000,…   the rates to try (default below), msg/s
//   BENCH_STEP_SECONDS=<n>    seconds per rate (default 5)
//   BENCH_TOTAL=<n>           messages before the second heap reading (default 1,000,000)
//   BENCH_TERMINAL=closed     the terminal pane closed instead of open
//   BENCH_CPU_PROF=<dir>      a CPU profile of the page per rate written to <dir>, top scripts and functions printed
//   BENCH_HEAP_SNAPSHOT=<dir> heap snapshots at each heap reading written to <dir> (open them in DevTools)
//   BENCH_TRACE=<prefix>      a Chrome trace per rate written to <prefix>-<rate>.json (large; slows the page)
import { fork, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { CDPSession, Page } from 'playwright-core'
import type { PublisherReply, PublisherRequest } from './testclient-publisher.ts'
import { importChromium, launchChromium, logIn, startConsoleServer } from './browser.ts'
import { profileSummary, type CpuProfile } from './cpuProfile.ts'

const RATES = (process.env.BENCH_RATES ?? '1000,2000,5000,10000,20000,40000').split(',').map(Number)
const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? 5)
const TOTAL = Number(process.env.BENCH_TOTAL ?? 1_000_000)
const FIRST_HEAP_AT = 10_000
/** A sustained rate has every message counted this long after the last one was sent. */
const DRAIN_MS = 2000
/** After the drain, counting goes on until nothing new arrives for this long (late vs lost). */
const SETTLE_MS = 1500
const LONG_TASK_MS = 50
/** Filling up to TOTAL: messages sent and not yet counted, and the pace of each burst. */
const FILL_WINDOW = 4000
const FILL_BURST_RATE = 40_000
/** The fill stops here whatever it reached, to keep the bench bounded. */
const FILL_MAX_MS = 180_000
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF
const TERMINAL_OPEN = process.env.BENCH_TERMINAL !== 'closed'
const HEAP_SNAPSHOT_DIR = process.env.BENCH_HEAP_SNAPSHOT

const here = new URL('.', import.meta.url)
const nodeFlags = process.execArgv.filter((flag) => !flag.startsWith('--cpu-prof'))

class Publisher {
  private readonly child: ChildProcess
  constructor() {
    this.child = fork(new URL('testclient-publisher.ts', here), [], { execArgv: nodeFlags, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  }
  private ask<T extends PublisherReply['type']>(request: PublisherRequest, type: T): Promise<Extract<PublisherReply, { type: T }>> {
    return new Promise((resolve, reject) => {
      const onMessage = (reply: PublisherReply) => {
        if (reply.type === 'error') (cleanup(), reject(new Error(`publisher: ${reply.message}`)))
        else if (reply.type === type) (cleanup(), resolve(reply as Extract<PublisherReply, { type: T }>))
      }
      const onExit = (code: number | null) => (cleanup(), reject(new Error(`publisher exited (${code})`)))
      const cleanup = () => (this.child.off('message', onMessage), this.child.off('exit', onExit))
      this.child.on('message', onMessage)
      this.child.once('exit', onExit)
      this.child.send(request)
    })
  }
  connect(port: number) {
    return this.ask({ type: 'connect', port }, 'connected')
  }
  /** `count` messages at `rate`/s; resolves once the last is written. */
  send(count: number, rate: number) {
    return this.ask({ type: 'send', count, rate }, 'sent')
  }
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    const exited = new Promise((resolve) => this.child.once('exit', resolve))
    if (this.child.connected) this.child.send({ type: 'stop' })
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 1000)
    await exited
    clearTimeout(timer)
  }
}

/** Installed before the app loads: long tasks and frames, kept in window.__bench. */
function pageProbe() {
  const bench = { longTasks: [] as { start: number; duration: number }[], frames: [] as number[], longFrames: [] as LongFrame[] }
  ;(window as unknown as { __bench: typeof bench }).__bench = bench
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, duration: entry.duration })
  }).observe({ type: 'longtask', buffered: true })
  // Long animation frames name the scripts that ran in them: what a long task was busy with.
  type Script = { invoker: string; sourceURL: string; sourceFunctionName: string; sourceCharPosition: number; duration: number }
  type LongFrame = { start: number; duration: number; scripts: string[] }
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { startTime: number; duration: number; scripts: Script[] }[])
        bench.longFrames.push({
          start: entry.startTime,
          duration: entry.duration,
          scripts: [...entry.scripts]
            .sort((a, b) => b.duration - a.duration)
            .slice(0, 3)
            .map((s) => `${s.invoker} → ${s.sourceFunctionName || '(anonymous)'} ${s.sourceURL.split('/').pop()}@${s.sourceCharPosition} ${Math.round(s.duration)} ms`),
        })
    }).observe({ type: 'long-animation-frame', buffered: true })
  } catch {
    // no long animation frames in this browser: long tasks are still measured
  }
  const frame = (time: number) => {
    bench.frames.push(time)
    if (bench.frames.length > 100_000) bench.frames.splice(0, 50_000)
    requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
}

interface Counts {
  received: number
  published: number
  dropped: number
}

async function readCounts(page: Page): Promise<Counts> {
  return page.evaluate(() => {
    const read = (id: string) => {
      const value = document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-count')
      if (value == null) throw new Error(`the /websocket screen has no [data-testid="${id}"] with a data-count`)
      return Number(value)
    }
    return { received: read('ws-count-received'), published: read('ws-count-published'), dropped: read('ws-count-dropped') }
  })
}

/**
 * Polls the received counter until it reaches `target`, or makes no progress for `idleMs`, or
 * `maxMs` pass. Returns what was counted by `inTimeMs` and in all, and when the target was reached.
 */
async function waitForCount(page: Page, target: number, inTimeMs: number, idleMs: number, maxMs: number) {
  const started = performance.now()
  let received = (await readCounts(page)).received
  let inTime = received
  let progressAt = started
  let reachedMs: number | undefined = received >= target ? 0 : undefined
  while (received < target) {
    const now = performance.now()
    if (now - progressAt > idleMs || now - started > maxMs) break
    await new Promise((resolve) => setTimeout(resolve, 25))
    const next = (await readCounts(page)).received
    const at = performance.now() - started
    if (next > received) progressAt = performance.now()
    received = next
    if (at <= inTimeMs) inTime = received
    if (received >= target) reachedMs = at
  }
  return { received, inTime, reachedMs }
}

async function heap(cdp: CDPSession, name: string) {
  for (let i = 0; i < 2; i++) await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize, totalSize } = await cdp.send('Runtime.getHeapUsage')
  const { nodes, jsEventListeners } = await cdp.send('Memory.getDOMCounters')
  if (HEAP_SNAPSHOT_DIR) {
    const chunks: string[] = []
    const onChunk = ({ chunk }: { chunk: string }) => void chunks.push(chunk)
    cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk)
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk)
    mkdirSync(HEAP_SNAPSHOT_DIR, { recursive: true })
    writeFileSync(join(HEAP_SNAPSHOT_DIR, `testclient-${name}.heapsnapshot`), chunks.join(''))
  }
  return { usedSize, totalSize, nodes, jsEventListeners }
}

const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(1)

export default async function run(): Promise<void> {
  const chromium = await importChromium('test client bench')
  if (!chromium) return
  const benchStarted = performance.now()
  let server: Awaited<ReturnType<typeof startConsoleServer>> | undefined
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined
  const publisher = new Publisher()
  try {
    server = await startConsoleServer('testclient')
    const metrics = server.broker!.metrics
    const brokerDropped = () => metrics.snapshot()['delivery.dropped.qos0_msg']
    await publisher.connect(server.mqttPort)
    browser = await launchChromium(chromium)
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.addInitScript(pageProbe)
    const base = `http://127.0.0.1:${server.port}`
    await logIn(page, base)
    await page.evaluate((open) => localStorage.setItem('terminal.open', String(open)), TERMINAL_OPEN)
    // The deep link opens the palette's script view on these lines; Ctrl+Enter runs them.
    const script = [`testclient.connect port=${server.wsPort}`, 'testclient.subscribe "t/#" qos=0'].join('\n')
    await page.goto(`${base}/websocket?script=${encodeURIComponent(script)}`)
    await page.getByTestId('ws-client').waitFor()
    if (TERMINAL_OPEN) await page.locator('.terminal-xterm .xterm-screen').waitFor()
    await page.getByRole('textbox', { name: 'Script: one command per line' }).waitFor()
    await page.keyboard.press('Control+Enter')
    await page.locator('.script-summary', { hasText: 'All 2 steps succeeded' }).waitFor({ timeout: 10_000 })
    await page.keyboard.press('Escape')
    await page.keyboard.press('Escape')
    const cdp = await page.context().newCDPSession(page)

    // Heap after the first 10,000 messages (the kept ring is full from there on).
    let sent = 0
    const first = await publisher.send(FIRST_HEAP_AT, 5000)
    sent += first.sent
    const warm = await waitForCount(page, sent, 0, 3000, 30_000)
    const heapFirst = await heap(cdp, 'first')
    const countsFirst = await readCounts(page)
    console.log(
      `Chromium ${browser.version()}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at the start (other work on the machine makes tasks look longer). ` +
        `${FIRST_HEAP_AT.toLocaleString('en')} messages sent first, ${warm.received.toLocaleString('en')} counted by the page; ` +
        `rates tried ${RATES.map((r) => r.toLocaleString('en')).join(', ')} msg/s for ${STEP_SECONDS} s each, 64-byte JSON payloads, QoS 0, terminal pane ${TERMINAL_OPEN ? 'open' : 'closed'}`,
    )

    const rows: Record<string, string | number>[] = []
    let highest = 0
    for (const rate of RATES) {
      const count = Math.round(rate * STEP_SECONDS)
      const before = await readCounts(page)
      const droppedBefore = brokerDropped()
      const from = await page.evaluate(() => performance.now())
      if (CPU_PROFILE_DIR) {
        await cdp.send('Profiler.enable')
        await cdp.send('Profiler.start')
      }
      if (process.env.BENCH_TRACE) await browser.startTracing(page, { path: `${process.env.BENCH_TRACE}-${rate}.json`, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'toplevel'] })
      const result = await publisher.send(count, rate)
      sent += result.sent
      const drained = await waitForCount(page, before.received + result.sent, DRAIN_MS, SETTLE_MS, 20_000)
      const inTime = drained.inTime - before.received
      const to = await page.evaluate(() => performance.now())
      if (process.env.BENCH_TRACE) await browser.stopTracing()
      let profileTop: ReturnType<typeof profileSummary> | undefined
      if (CPU_PROFILE_DIR) {
        const { profile } = await cdp.send('Profiler.stop')
        mkdirSync(CPU_PROFILE_DIR, { recursive: true })
        writeFileSync(join(CPU_PROFILE_DIR, `testclient-${rate}.cpuprofile`), JSON.stringify(profile))
        profileTop = profileSummary(profile)
      }
      const probe = await page.evaluate(
        ([from, to]) => {
          const bench = (
            window as unknown as {
              __bench: { longTasks: { start: number; duration: number }[]; frames: number[]; longFrames: { start: number; duration: number; scripts: string[] }[] }
            }
          ).__bench
          const tasks = bench.longTasks.filter((task) => task.start >= from && task.start < to)
          const frames = bench.frames.filter((time) => time >= from && time < to).length
          const worst = bench.longFrames.filter((f) => f.start >= from && f.start < to).sort((a, b) => b.duration - a.duration)[0]
          return { tasks: tasks.map((task) => task.duration), frames, worst }
        },
        [from, to] as const,
      )
      const counted = drained.received - before.received
      const lost = result.sent - counted
      const over = probe.tasks.filter((d) => d > LONG_TASK_MS)
      const maxTask = probe.tasks.length ? Math.max(...probe.tasks) : 0
      const achieved = Math.round(result.sent / (result.ms / 1000))
      const sustained = inTime === result.sent && over.length === 0
      if (sustained) highest = Math.max(highest, achieved)
      rows.push({
        'target msg/s': rate,
        'achieved msg/s': achieved,
        sent: result.sent,
        'counted in 2 s': inTime,
        'counted in all': counted,
        lost,
        'broker qos0 drops': brokerDropped() - droppedBefore,
        'drain ms': drained.reachedMs === undefined ? '-' : Math.round(drained.reachedMs),
        'tasks > 50 ms': over.length,
        'max task ms': maxTask ? Math.round(maxTask) : '< 50',
        fps: Math.round(probe.frames / ((to - from) / 1000)),
        sustained: sustained ? 'yes' : 'no',
      })
      if (over.length && probe.worst)
        console.log(`at ${rate} msg/s the longest animation frame took ${Math.round(probe.worst.duration)} ms; its longest scripts: ${probe.worst.scripts.join('; ') || 'none (rendering or the browser itself)'}`)
      if (profileTop)
        console.log(`CPU profile of the page at ${rate} msg/s, self time by script: ${profileTop.scripts.join(', ')}\n  by function: ${profileTop.functions.join(', ')}`)
      // Clearly unsustainable: the page fell behind (or messages were lost); a higher rate only does worse.
      if (inTime < result.sent) break
    }
    console.table(rows)
    console.log(`highest sustained rate: ${highest ? `${highest.toLocaleString('en')} msg/s` : 'none of the rates tried'} (every message counted within ${DRAIN_MS / 1000} s, no main-thread task over ${LONG_TASK_MS} ms)`)

    // Up to TOTAL messages as fast as the page counts them: at most WINDOW sent and not yet counted
    // (well under what the broker buffers for a slow QoS 0 subscriber, so none are dropped).
    // Messages the broker dropped in the rate steps are never counted: the window leaves them out.
    // The heap is read halfway too, to tell a trend from a one-off step.
    const fillStarted = performance.now()
    const fillFrom = sent
    let uncountable = sent - (await readCounts(page)).received
    const fillTo = async (target: number) => {
      let progressAt = performance.now()
      let last = -1
      while (sent < target && performance.now() - fillStarted < FILL_MAX_MS) {
        const { received } = await readCounts(page)
        if (received !== last) (last = received), (progressAt = performance.now())
        // Nothing counted for a while: what is missing was dropped on the way (reported below).
        if (performance.now() - progressAt > SETTLE_MS) (uncountable = sent - received), (progressAt = performance.now())
        const room = Math.min(target - sent, received + uncountable + FILL_WINDOW - sent)
        if (room >= Math.min(FILL_WINDOW / 4, target - sent)) sent += (await publisher.send(room, FILL_BURST_RATE)).sent
        else await new Promise((resolve) => setTimeout(resolve, 25))
      }
      await waitForCount(page, sent - uncountable, 0, SETTLE_MS, 30_000)
    }
    const half = Math.max(sent, Math.round(TOTAL / 2))
    await fillTo(half)
    const heapHalf = await heap(cdp, 'half')
    const countsHalf = await readCounts(page)
    await fillTo(TOTAL)
    // The halfway reading's GC and pause are in the time too (a second or so).
    const fillSeconds = (performance.now() - fillStarted) / 1000
    const heapLast = await heap(cdp, 'last')
    const countsLast = await readCounts(page)
    const droppedTotal = brokerDropped()
    console.log(
      `then ${(sent - fillFrom).toLocaleString('en')} more messages as fast as the page counted them (at most ${FILL_WINDOW.toLocaleString('en')} uncounted): ` +
        `${Math.round((sent - fillFrom) / fillSeconds).toLocaleString('en')} msg/s over ${fillSeconds.toFixed(0)} s`,
    )
    console.table([
      { after: `${countsFirst.received.toLocaleString('en')} messages`, 'JS heap used MB': mb(heapFirst.usedSize), 'JS heap total MB': mb(heapFirst.totalSize), 'DOM nodes': heapFirst.nodes, listeners: heapFirst.jsEventListeners },
      { after: `${countsHalf.received.toLocaleString('en')} messages`, 'JS heap used MB': mb(heapHalf.usedSize), 'JS heap total MB': mb(heapHalf.totalSize), 'DOM nodes': heapHalf.nodes, listeners: heapHalf.jsEventListeners },
      { after: `${countsLast.received.toLocaleString('en')} messages`, 'JS heap used MB': mb(heapLast.usedSize), 'JS heap total MB': mb(heapLast.totalSize), 'DOM nodes': heapLast.nodes, listeners: heapLast.jsEventListeners },
    ])
    console.log(`heap used after ${countsLast.received.toLocaleString('en')} messages / after ${countsFirst.received.toLocaleString('en')}: ${(heapLast.usedSize / heapFirst.usedSize).toFixed(2)}× (after a forced GC)`)
    console.log('counts check (the page\'s counters against the publisher and the broker):')
    console.table([
      {
        sent,
        'received counter': countsLast.received,
        'dropped-from-view counter': countsLast.dropped,
        'kept in view': countsLast.received - countsLast.dropped,
        'published counter': countsLast.published,
        'broker qos0 drops': droppedTotal,
        'received = sent': countsLast.received === sent ? 'yes' : `no (${sent - countsLast.received} missing${droppedTotal ? `, the broker dropped ${droppedTotal} for a slow subscriber` : ''})`,
      },
    ])
    console.log(`bench took ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`)
  } finally {
    await browser?.close().catch(() => {})
    await publisher.stop().catch(() => {})
    await server?.close()
  }
}
