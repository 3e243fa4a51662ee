// `npm run bench trace`: what log traces cost (issue 17, "Numbers"). QoS 0 fan-in (100 publishers
// -> 1 subscriber, bench/mqtt-load.ts in a process of its own) through the embedded broker, with
// 1,000 idle clients connected throughout: with no trace, with a trace on one client (one of the
// publishers: its packets and messages are written, the 1,099 others only checked), and with a topic
// trace on `#` (every message written), each created and deleted over the REST API as an operator
// would; beside mosquitto 2 in the same run with its default logging (log_type error, warning,
// notice, information to a file: connects and disconnects, nothing per message) and with
// `log_type all` (its debug lines name every PUBLISH in and out: the nearest it has to a trace on
// `#`). Then how fast the console draws a followed trace in Chromium (bench/trace-terminal.ts).
//   BENCH_SECONDS=<n>      measured seconds per case (default 4, after a 1 s warm-up)
//   BENCH_NO_MOSQUITTO=1   skips mosquitto
//   BENCH_NO_BROWSER=1     skips the terminal table
//   BENCH_NO_OVERHEAD=1    skips the overhead table
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cpuPerMessage, holdIdleClients, load, mosquittoInstalled, startMosquitto, startNodeBroker, type Target } from './broker-targets.ts'
import type { Job, LoadResult } from './mqtt-load.ts'
import { restOf, type Rest } from './rest.ts'
import { terminalTable } from './trace-terminal.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const IDLE_CLIENTS = 1000
const PUBLISHERS = 100

type Result = LoadResult & { brokerCpu: number }
interface Row {
  label: string
  result: Result
  /** Bytes the trace file or mosquitto's log gained over the case (warm-up, measured window and drain). */
  written: number
}

const fanIn = (port: number, runId: string): Job => ({ kind: 'fan-in', port, qos: 0, publishers: PUBLISHERS, window: 1000, seconds: SECONDS, runId })

/** One case on the embedded broker: the trace `body` (if any) created before the load and deleted after it. */
async function embeddedCase(target: Target, rest: Rest, label: string, runId: string, body?: Record<string, unknown>): Promise<Row> {
  if (!body) return { label, result: await load(target, fanIn(target.port, runId)), written: 0 }
  const name = String(body.name)
  // An hour from now: running for the whole case, whatever the clock says.
  await rest('POST', '/trace', { ...body, end_at: Math.floor(Date.now() / 1000) + 3600 })
  try {
    const result = await load(target, fanIn(target.port, runId))
    const traces = (await rest('GET', '/trace')) as Array<{ name: string; status: string; log_size: Record<string, number> }>
    const trace = traces.find((t) => t.name === name)
    if (trace?.status !== 'running') throw new Error(`trace ${name} is ${trace?.status ?? 'gone'}, not running`)
    return { label, result, written: Object.values(trace.log_size).reduce((a, b) => a + b, 0) }
  } finally {
    await rest('DELETE', `/trace/${name}`)
  }
}

async function embeddedRows(): Promise<Row[]> {
  const target = await startNodeBroker('embedded')
  try {
    const rest = await restOf(target)
    const release = await holdIdleClients(target, IDLE_CLIENTS)
    try {
      const connected = `${IDLE_CLIENTS.toLocaleString('en')} idle + ${PUBLISHERS + 1} load clients`
      const runId = (kind: string) => `${kind}${Date.now().toString(36)}`
      const traced = runId('one')
      // Not shown: the first load on a fresh broker also pays for compiling its hot paths.
      await load(target, fanIn(target.port, runId('warm')))
      return [
        await embeddedCase(target, rest, `embedded, no trace (${connected})`, runId('none')),
        await embeddedCase(target, rest, `embedded, clientid trace on 1 publisher of ${connected}`, traced, {
          name: 'bench_one_client',
          type: 'clientid',
          clientid: `bench-in-pub-${traced}-0`,
        }),
        await embeddedCase(target, rest, `embedded, topic trace on # (${connected})`, runId('all'), { name: 'bench_all_topics', type: 'topic', topic: '#' }),
      ]
    } finally {
      await release()
    }
  } finally {
    await target.stop()
  }
}

/** mosquitto logging to a file as configured (`user root`: as root it would switch to a user that cannot write our directory). */
async function mosquittoRow(label: string, logType: string | undefined): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'emqx-console-bench-mosquitto-log-'))
  const file = join(dir, 'mosquitto.log')
  const asRoot = process.getuid?.() === 0 ? 'user root\n' : ''
  const target = await startMosquitto(`${asRoot}log_dest file ${file}${logType ? `\nlog_type ${logType}` : ''}`)
  try {
    const release = await holdIdleClients(target, IDLE_CLIENTS)
    try {
      const before = statSync(file).size
      const result = await load(target, fanIn(target.port, `mosq${Date.now().toString(36)}`))
      return { label, result, written: statSync(file).size - before }
    } finally {
      await release()
    }
  } finally {
    await target.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function overheadTable(): Promise<void> {
  const rows = await embeddedRows()
  if (mosquittoInstalled()) {
    rows.push(await mosquittoRow('mosquitto 2, default logging to a file (1,000 idle + 101 load clients)', undefined))
    rows.push(await mosquittoRow('mosquitto 2, log_type all (every PUBLISH in and out)', 'all'))
  } else console.log('mosquitto is not installed (apt-get install -y mosquitto): no mosquitto figures')
  console.log(`\nTrace overhead: QoS 0 fan-in, ${PUBLISHERS} publishers -> 1 subscriber, 64-byte payloads, ${SECONDS} s measured per case after a 1 s warm-up.`)
  console.log('CPU in cores (2 on this machine); CPU µs / msg is the broker\'s per message delivered. Log MB: what the trace file (or mosquitto\'s')
  console.log('log) gained over the whole case, warm-up and drain included; bytes / msg divides it by the messages published over that time.')
  const base = rows[0]
  const baseMosquitto = rows.find((row) => row.label.startsWith('mosquitto'))
  console.table(
    rows.map(({ label, result, written }) => {
      const peerBase = label.startsWith('mosquitto') ? baseMosquitto : base
      // Published over the case: the measured rate over warm-up and measured window.
      const publishedOverCase = result.publishedPerSecond * (SECONDS + 1)
      return {
        case: label,
        'msg/s': result.perSecond,
        'vs its no-trace row': peerBase ? +(result.perSecond / peerBase.result.perSecond).toFixed(2) : '-',
        'broker CPU': result.brokerCpu,
        'load CPU': result.loadCpu,
        'CPU µs / msg': +cpuPerMessage(result).toFixed(2),
        'p50 / p99 ms': `${result.p50 ?? 'late'} / ${result.p99 ?? 'late'}`,
        'log MB': +(written / 1024 / 1024).toFixed(1),
        'bytes / msg': publishedOverCase ? Math.round(written / publishedOverCase) : '-',
        'lost / late': `${result.lost}/${result.late}`,
      }
    }),
  )
}

export default async function traceBench(): Promise<void> {
  if (!process.env.BENCH_NO_OVERHEAD) await overheadTable()
  if (!process.env.BENCH_NO_BROWSER) await terminalTable()
}
