// `npm run bench rules`: what the rule engine costs on the publish path. QoS 0 fan-in (100 publishers
// -> 1 subscriber, bench/mqtt-load.ts in a process of its own) through the embedded broker with no
// rules, with 100 rules none of which match, and with 10 matching rules that republish (another
// client receives the republished messages), beside mosquitto's plain QoS 0 rate in the same run.
// Then the cost of one evaluated rule: the compiled rule run on its own (in this process), and the
// broker's CPU per message with 10 matching rules less that with none, over 10.
//   BENCH_SECONDS=<n>      measured seconds per case (default 4, after a 1 s warm-up)
//   BENCH_NO_MOSQUITTO=1   skips mosquitto
import { performance } from 'node:perf_hooks'
import { compileRule } from '../server/rules/sql/index.ts'
import { sqlFunctions } from '../server/rules/sql-functions.ts'
import { cpuPerMessage, load, mosquittoInstalled, startMosquitto, startNodeBroker, type Target } from './broker-targets.ts'
import type { Job, LoadResult } from './mqtt-load.ts'
import { restOf, type Rest } from './rest.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const NON_MATCHING_RULES = 100
const MATCHING_RULES = 10

const fanIn = (port: number, alsoSubscribe?: string): Job => ({
  kind: 'fan-in',
  port,
  qos: 0,
  publishers: 100,
  window: 1000,
  seconds: SECONDS,
  ...(alsoSubscribe ? { alsoSubscribe } : {}),
})

async function createRules(rest: Rest, prefix: string, count: number, rule: (i: number) => { sql: string; actions: unknown[] }): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}${i}`)
  for (const [i, id] of ids.entries()) await rest('POST', '/rules', { id, ...rule(i) })
  return ids
}

async function deleteRules(rest: Rest, ids: readonly string[]): Promise<void> {
  for (const id of ids) await rest('DELETE', `/rules/${id}`)
}

type Row = { label: string; result: LoadResult & { brokerCpu: number } }

async function publishPath(): Promise<Row[]> {
  const rows: Row[] = []
  const embedded = await startNodeBroker('embedded')
  try {
    const rest = await restOf(embedded)
    rows.push({ label: 'embedded, 0 rules', result: await load(embedded, fanIn(embedded.port)) })

    // FROM filters on other topics: an indexed engine never evaluates them for bench/in/+.
    const idle = await createRules(rest, 'bench_nomatch_', NON_MATCHING_RULES, (i) => ({
      sql: `SELECT payload FROM "elsewhere/${i}/#" WHERE payload.x > 1`,
      actions: [{ function: 'republish', args: { topic: `elsewhere/out/${i}`, payload: '${payload}', qos: 0 } }],
    }))
    rows.push({ label: `embedded, ${NON_MATCHING_RULES} rules, none match`, result: await load(embedded, fanIn(embedded.port)) })
    await deleteRules(rest, idle)

    const matching = await createRules(rest, 'bench_match_', MATCHING_RULES, (i) => ({
      sql: `SELECT payload, topic, clientid FROM "bench/in/#" WHERE qos = 0`,
      actions: [{ function: 'republish', args: { topic: `bench/out/${i}`, payload: '${payload}', qos: 0, retain: false } }],
    }))
    rows.push({
      label: `embedded, ${MATCHING_RULES} matching rules that republish`,
      result: await load(embedded, fanIn(embedded.port, 'bench/out/#')),
    })
    await deleteRules(rest, matching)
  } finally {
    await embedded.stop()
  }
  if (mosquittoInstalled()) {
    const mosquitto = await startMosquitto()
    try {
      rows.push({ label: 'mosquitto (no rule engine)', result: await load(mosquitto, fanIn(mosquitto.port)) })
    } finally {
      await mosquitto.stop()
    }
  } else console.log('mosquitto is not installed (apt-get install -y mosquitto): no mosquitto figures')
  return rows
}

/** Microseconds one compiled rule takes to run on one message context, over many runs. */
function ruleRunMicros(sql: string, context: Record<string, unknown>): number {
  const rule = compileRule(sql, sqlFunctions)
  const runs = 200_000
  for (let i = 0; i < 20_000; i++) rule.run({ ...context })
  const started = performance.now()
  for (let i = 0; i < runs; i++) rule.run({ ...context })
  return ((performance.now() - started) * 1000) / runs
}

function compiledRuleTable(): Record<string, string | number>[] {
  const message = (payload: string) => ({
    id: '0006',
    clientid: 'sensor-1',
    username: 'u',
    payload,
    qos: 0,
    topic: 'sensors/a/temp',
    flags: { retain: false, dup: false },
    pub_props: {},
    timestamp: 1_700_000_000_000,
    publish_received_at: 1_700_000_000_000,
    node: 'emqx@127.0.0.1',
    event: 'message.publish',
  })
  const hot = message('{"temp":31.5,"hum":40}')
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ['SELECT * (no WHERE)', 'SELECT * FROM "sensors/#"', hot],
    ['payload field, WHERE passes', 'SELECT payload.temp AS t, clientid FROM "sensors/#" WHERE t > 30', hot],
    ['payload field, WHERE rejects', 'SELECT payload.temp AS t FROM "sensors/#" WHERE t > 40', hot],
    ['functions: upper, topic(2), round', 'SELECT upper(clientid) AS c, topic(2) AS room, round(payload.temp) AS t FROM "sensors/#"', hot],
    ['FOREACH over 5 items', 'FOREACH payload.items AS x DO x.v AS v INCASE x.v > 1 FROM "sensors/#"', message('{"items":[{"v":1},{"v":2},{"v":3},{"v":4},{"v":5}]}')],
  ]
  return cases.map(([label, sql, context]) => ({ 'compiled rule run': label, 'µs per run': +ruleRunMicros(sql, context).toFixed(2) }))
}

export default async function rulesBench(): Promise<void> {
  console.log(`QoS 0 fan-in, 100 publishers -> 1 subscriber, ${SECONDS} s measured per case; CPU µs / msg is the broker's per message published`)
  const rows = await publishPath()
  const base = rows.find((row) => row.label === 'embedded, 0 rules')
  console.table(
    rows.map(({ label, result }) => ({
      case: label,
      'msg/s delivered': result.perSecond,
      'republished msg/s': result.alsoPerSecond ?? '-',
      'vs 0 rules': base && label.startsWith('embedded') ? +(result.perSecond / base.result.perSecond).toFixed(2) : '-',
      'broker CPU': result.brokerCpu,
      // Near 1: the load process (which also reads every republished message) set the pace, not the broker.
      'load CPU': result.loadCpu,
      'CPU µs / msg': +cpuPerMessage(result).toFixed(2),
      'p50 / p99 ms': `${result.p50 ?? 'late'} / ${result.p99 ?? 'late'}`,
    })),
  )
  const matching = rows.find((row) => row.label.includes('matching rules that republish'))
  const perRule = (cpuPerMessage(matching?.result) - cpuPerMessage(base?.result)) / MATCHING_RULES
  console.log(
    `Publish path: ${Number.isFinite(perRule) ? perRule.toFixed(2) : '-'} µs of broker CPU per evaluated rule ` +
      `(10 matching rules, each republishing one message that is delivered), from CPU per message less that with no rules`,
  )
  console.table(compiledRuleTable())
}
