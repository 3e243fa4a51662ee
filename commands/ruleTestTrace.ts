// A saved-rule test with what each output rendered, as 5.8's dashboard "Try it out" gets it: a
// temporary rule-id trace with the JSON formatter (named `DEBUG_RULE_<rule>_<time>` as the dashboard
// names it), the test, the trace's log read until every action wrote the line that ended it (its
// buffer worker sends after the test call answers) or a short deadline passes, and the trace
// deleted whatever happened. A trace already running on the rule is read from its end instead; a
// trace that cannot be made (no permission, too many traces) leaves the plain answer and says why.
import { ApiError } from '../contract/api-error.ts'
import { traceErrors, traceMessages, type Trace } from '../contract/trace.ts'
import type { Api } from '../src/api/index.ts'
import type { Text } from './commandError.ts'
import { allEnded, collectRenders, outputKey, type ActionRender } from './ruleTestLines.ts'
import { sleep } from './sleep.ts'

/** A saved rule's test: the server's answer, each output's rendering, and why any is missing. */
export interface SavedRuleTest {
  output: unknown
  actions: ActionRender[]
  /** The trace was read: false leaves each action's rendering unknown (not known to be absent). */
  traced: boolean
  /** Why nothing or not everything rendered could be shown. */
  note?: Text
}

export const isSavedRuleTest = (result: unknown): result is SavedRuleTest =>
  !!result && typeof result === 'object' && 'actions' in result && Array.isArray((result as SavedRuleTest).actions)

export interface RenderWait {
  /** How long the actions' lines are waited for after the test answered. */
  deadlineMs: number
  pollMs: number
}
const WAIT: RenderWait = { deadlineMs: 3000, pollMs: 150 }
/** The temporary trace ends by itself if its deletion fails (the dashboard gives it a day). */
const TRACE_MINUTES = 10

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** `DEBUG_RULE_<rule>_YYYYMMDD_HHmmssSSS`, the rule id's characters a trace name refuses made `_`. */
export function debugTraceName(ruleId: string, at = new Date()): string {
  const time = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}_${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}${pad(at.getMilliseconds(), 3)}`
  return `DEBUG_RULE_${ruleId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 200)}_${time}`
}

/** Where reading starts on each node: undefined reads the answering node. */
type Positions = Map<string | undefined, number>

interface Reading {
  name: string
  /** Made for this test, so deleted after it. */
  own: boolean
  positions: Positions
  /** What was read since the test began, per node: lines cut by a read join up with the next. */
  texts: Map<string | undefined, string>
}

/** A running trace of the rule's id, read from its current end on every node holding its file. */
async function fromEnd(api: Api, name: string): Promise<Reading> {
  const detail = await api.trace.logDetail(name)
  const positions: Positions = new Map(detail.map((file) => [file.node, file.size]))
  if (positions.size === 0) positions.set(undefined, 0)
  return { name, own: false, positions, texts: new Map() }
}

const runningOn = (traces: readonly Trace[], ruleId: string) =>
  traces.find((trace) => trace.type === 'ruleid' && trace.ruleid === ruleId && trace.status === 'running')

/** The trace to read: one already running on the rule, else a new one; 409 DUPLICATE_CONDITION names the one to read. */
async function openReading(api: Api, ruleId: string): Promise<Reading> {
  const running = runningOn(await api.trace.list(), ruleId)
  if (running) return fromEnd(api, running.name)
  const start = new Date()
  const name = debugTraceName(ruleId, start)
  try {
    await api.trace.create({
      name,
      type: 'ruleid',
      ruleid: ruleId,
      formatter: 'json',
      payload_encode: 'text',
      start_at: start.toISOString(),
      end_at: new Date(start.getTime() + TRACE_MINUTES * 60_000).toISOString(),
    })
  } catch (error) {
    const duplicate = error instanceof ApiError && error.code === traceErrors.duplicateCondition.code
    const other = duplicate ? error.message.replace(traceMessages.duplicate(''), '') : ''
    if (other) return fromEnd(api, other)
    throw error
  }
  return { name, own: true, positions: new Map([[undefined, 0]]), texts: new Map() }
}

/** Reads on what every node wrote since the last read; answers all that was read since the test began. */
async function readOn(api: Api, reading: Reading): Promise<string> {
  for (const [node, position] of reading.positions) {
    let at = position
    for (;;) {
      const page = await api.trace.log(reading.name, { position: at, bytes: 1_000_000, ...(node ? { node } : {}) })
      if (page.items === '') break
      reading.texts.set(node, (reading.texts.get(node) ?? '') + page.items)
      at = page.meta.position
    }
    reading.positions.set(node, at)
  }
  return [...reading.texts.values()].join('\n')
}

const failureNote = (error: unknown): Text => {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return { key: 'ruleSql.try.note.forbidden' }
  return { key: 'ruleSql.try.note.traceFailed', values: { reason: error instanceof Error ? error.message : String(error) } }
}

/**
 * Runs `test` (the saved rule's test stopping after rendering) inside a trace of the rule and answers
 * what each of `outputs` rendered; the test's own failure (412, 404) is thrown as it came.
 */
export async function testWithRenders(api: Api, ruleId: string, outputs: readonly (string | { function: string })[], test: () => Promise<unknown>, wait: RenderWait = WAIT): Promise<SavedRuleTest> {
  const keys = outputs.map(outputKey)
  const plain = (output: unknown, note: Text): SavedRuleTest => ({ output, actions: collectRenders(keys, ''), traced: false, note })
  let reading: Reading
  try {
    reading = await openReading(api, ruleId)
  } catch (error) {
    return plain(await test(), failureNote(error))
  }
  try {
    const output = await test()
    return await collected(api, reading, keys, wait).then(
      ({ actions, ended }) => (ended ? { output, actions, traced: true } : { output, actions, traced: true, note: { key: 'ruleSql.try.note.incomplete' } }),
      (error: unknown) => plain(output, failureNote(error)),
    )
  } finally {
    if (reading.own) await api.trace.delete(reading.name).catch(() => undefined)
  }
}

/** The renders read until every action ended or the deadline passed. */
async function collected(api: Api, reading: Reading, keys: readonly string[], wait: RenderWait): Promise<{ actions: ActionRender[]; ended: boolean }> {
  const deadline = Date.now() + wait.deadlineMs
  for (;;) {
    const text = await readOn(api, reading)
    const actions = collectRenders(keys, text)
    if (allEnded(actions)) return { actions, ended: true }
    if (Date.now() >= deadline) return { actions, ended: false }
    await sleep(wait.pollMs)
  }
}
