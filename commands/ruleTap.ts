// rule.tap: runs a rule SQL statement against the next live messages or events without the
// operator saving a rule, and prints each output as it arrives. Built only from EMQX's API, so it
// works unchanged against EMQX 5.8: a temporary rule whose one output republishes the whole selected
// output (`${.}`) to a private topic, a private MQTT subscription to that topic, and the rule
// deleted when the tap ends (count reached, time up, stopped, or failed).
import * as v from 'valibot'
import { randomId } from '../src/testclient/connectionSettings.ts'
import type { RuleBody } from '../src/api/rules.ts'
import type { Api } from '../src/api/index.ts'
import { durationArg, parseDuration } from './args.ts'
import { defineCommand, type LiveStream } from './define.ts'

export const TAP_PREFIX = 'tap_'
export const DEFAULT_TAP_COUNT = 10
export const MAX_TAP_COUNT = 1000
export const DEFAULT_TAP_TIMEOUT = '60s'
const MAX_TAP_TIMEOUT_MS = 3_600_000
/** A tap's rule outlives its timeout by this much before another tap may remove it as stale. */
const STALE_GRACE_MS = 60_000

export type TapStop = 'count' | 'timeout' | 'stopped'

export interface TapResult {
  rule: string
  /** Each output as the rule selected it (an object; a FOREACH yields one per element). */
  outputs: unknown[]
  stopped: TapStop
}

/** The private topic a tap's rule republishes to: `$`-topics are not matched by `#` subscribers. */
export function tapTopic(ruleId: string): string {
  return `$tap/${ruleId}`
}

/** The description that says whose rule this is and when it may be removed. */
export function tapDescription(expiresAt: number): string {
  return `rule.tap: temporary rule of a live tap, removed when the tap ends; expires ${new Date(expiresAt).toISOString()}`
}

function expiryOf(description: string): number | undefined {
  const match = /^rule\.tap: .*expires (\S+)$/.exec(description)
  const time = match ? Date.parse(match[1]) : NaN
  return Number.isNaN(time) ? undefined : time
}

/** Removes the rules of taps that ended without cleaning up (a crashed CLI, a closed tab). */
export async function removeStaleTaps(api: Api, now = Date.now()): Promise<string[]> {
  const page = await api.rules.list({ like_id: TAP_PREFIX, limit: 1000 })
  const stale = page.data.filter((rule) => {
    const expires = rule.id.startsWith(TAP_PREFIX) ? expiryOf(rule.description) : undefined
    return expires !== undefined && expires < now
  })
  await Promise.all(stale.map((rule) => api.rules.delete(rule.id).catch(() => undefined)))
  return stale.map((rule) => rule.id)
}

/** The temporary rule: its only output republishes the whole selected output, bypassing other rules. */
export function tapRule(id: string, sql: string, expiresAt: number): RuleBody {
  return {
    id,
    name: id,
    sql,
    enable: true,
    description: tapDescription(expiresAt),
    actions: [
      {
        function: 'republish',
        args: { topic: tapTopic(id), qos: 0, retain: false, payload: '${.}', mqtt_properties: {}, user_properties: '', direct_dispatch: true },
      },
    ],
  }
}

function parseOutput(payload: Uint8Array): unknown {
  const text = new TextDecoder().decode(payload)
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Waits until `count` outputs arrived, the time is up, or the stream was stopped. */
function untilDone(stream: LiveStream | undefined, timeoutMs: number): { done: Promise<TapStop>; finish(reason: TapStop): void } {
  let finish: (reason: TapStop) => void = () => undefined
  const done = new Promise<TapStop>((resolve) => {
    const timer = setTimeout(() => finish('timeout'), timeoutMs)
    const onAbort = () => finish('stopped')
    stream?.signal.addEventListener('abort', onAbort, { once: true })
    finish = (reason) => {
      clearTimeout(timer)
      stream?.signal.removeEventListener('abort', onAbort)
      resolve(reason)
    }
    if (stream?.signal.aborted) finish('stopped')
  })
  return { done, finish: (reason) => finish(reason) }
}

export const ruleTap = defineCommand({
  id: 'rule.tap',
  title: 'cmd.rule.tap',
  group: 'cmdGroup.rules',
  aliases: ['tap', 'rule tap', 'live', 'sql', '规则', '监听'],
  // It creates and deletes its own temporary rule; the rules list is the same before and after.
  changes: ['rules'],
  args: v.object({
    sql: v.pipe(v.string(), v.title('ruleTap.field.sql'), v.description('ruleTap.hint.sql'), v.nonEmpty('err.required')),
    count: v.optional(
      v.pipe(v.number('err.number'), v.title('ruleTap.field.count'), v.integer('err.integer'), v.minValue(1), v.maxValue(MAX_TAP_COUNT)),
      DEFAULT_TAP_COUNT,
    ),
    timeout: v.optional(
      v.pipe(
        durationArg('ruleTap.field.timeout', { description: 'ruleTap.hint.timeout' }),
        v.check((text: string) => {
          const ms = parseDuration(text) ?? 0
          return ms >= 1000 && ms <= MAX_TAP_TIMEOUT_MS
        }, 'ruleTap.err.timeoutRange'),
      ),
      DEFAULT_TAP_TIMEOUT,
    ),
    username: v.optional(v.pipe(v.string(), v.title('ruleTap.field.username'), v.description('ruleTap.hint.username'))),
    password: v.optional(v.pipe(v.string(), v.title('ruleTap.field.password'))),
  }),
  positional: ['sql'],
  secretArgs: ['password'],
  describe: ({ sql, count, timeout }) => ({ key: 'ruleTap.describe', values: { sql, count, timeout } }),
  resultText: (result: TapResult) => ({
    key: `ruleTap.result.${result.stopped}`,
    values: { count: result.outputs.length, rule: result.rule },
  }),
  async run(ctx, { sql, count, timeout, username, password }): Promise<TapResult> {
    const timeoutMs = parseDuration(timeout) ?? 60_000
    const id = `${TAP_PREFIX}${randomId(10)}`
    const stream = ctx.live?.open('rule.tap')
    const outputs: unknown[] = []
    const { done, finish } = untilDone(stream, timeoutMs)
    let subscription: { close(): Promise<void> } | undefined
    let created = false
    try {
      // Housekeeping only: a tap still runs when the list cannot be read.
      await removeStaleTaps(ctx.api).catch(() => [])
      // Loaded on first use: the browser's command registry does not carry mqtt.js.
      const { openTapSubscription } = await import('./ruleTapConnection.ts')
      // Subscribed before the rule exists, so the tap's own connection is no event the rule sees.
      subscription = await openTapSubscription(ctx, id, tapTopic(id), { username, password }, (message) => {
        if (outputs.length >= count) return
        const output = parseOutput(message.payload)
        outputs.push(output)
        stream?.line(typeof output === 'string' ? output : JSON.stringify(output))
        if (outputs.length >= count) finish('count')
      })
      await ctx.api.rules.create(tapRule(id, sql, Date.now() + timeoutMs + STALE_GRACE_MS))
      created = true
      stream?.line({ key: 'ruleTap.started', values: { rule: id, count, timeout } })
      const stopped = await done
      return { rule: id, outputs, stopped }
    } finally {
      finish('stopped')
      if (created) await ctx.api.rules.delete(id).catch(() => undefined)
      await subscription?.close()
      stream?.close()
    }
  },
})

export const ruleTapCommands = [ruleTap]
