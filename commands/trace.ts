// Log traces (EMQX `/trace`): create one on a client, topic, address or rule for a time span, stop,
// delete one or all, list them, download a trace's zip, and follow its log as it is written.
import * as v from 'valibot'
import {
  TRACE_FORMATTERS,
  TRACE_PAYLOAD_ENCODES,
  TRACE_TYPES,
  traceNameProblem,
  traceMessages,
  traceFilter,
  type Trace,
  type TraceType,
} from '../contract/trace.ts'
import { dateArg, resolveDateInput } from './args.ts'
import { completeClientId, completePeerhost, completeTopic } from './clients.ts'
import { completeRuleId } from './rules.ts'
import { CommandError, defineCommand, type Completer } from './define.ts'
import { ApiError } from '../contract/api-error.ts'
import { followTraceLog, type FollowEnd } from './traceFollow.ts'
import { defineRead, shortTime, tableOf } from './format/read.ts'

const GROUP = 'cmdGroup.trace'

/** The i18n key of a trace name's problem (EMQX's name rule and 256-byte limit). */
function nameKey(name: string): string | undefined {
  const problem = traceNameProblem(name)
  if (problem === undefined) return undefined
  return problem === traceMessages.nameLength ? 'trace.err.nameLength' : 'trace.err.nameRule'
}

const newName = () =>
  v.pipe(
    v.string(),
    v.title('trace.field.name'),
    v.description('trace.hint.name'),
    v.minLength(1, 'err.required'),
    v.check((name: string) => nameKey(name) !== 'trace.err.nameLength', 'trace.err.nameLength'),
    v.check((name: string) => nameKey(name) === undefined, 'trace.err.nameRule'),
  )
const existingName = () => v.pipe(v.string(), v.title('trace.field.name'), v.minLength(1, 'err.required'))

/** Names of the traces containing the query; `status` keeps only those in it. */
function completeTraceName(keep?: (trace: Trace) => boolean): Completer {
  return async (api, query, signal) =>
    (await api.trace.list(signal))
      .filter((trace) => (keep ? keep(trace) : true) && trace.name.includes(query.trim()))
      .map((trace) => trace.name)
      .slice(0, 20)
}

const completers: Record<TraceType, Completer> = {
  clientid: completeClientId,
  topic: completeTopic,
  ip_address: completePeerhost,
  ruleid: completeRuleId,
}

/** What to trace, by what `type` says: connected clients, topics, addresses or rules. */
const completeValue: Completer = (api, query, signal, args) => {
  const type = (TRACE_TYPES as readonly string[]).includes(args?.type ?? '') ? (args?.type as TraceType) : 'clientid'
  return completers[type](api, query, signal)
}

export const createTrace = defineCommand({
  id: 'trace.create',
  title: 'cmd.trace.create',
  group: GROUP,
  changes: ['trace'],
  args: v.object({
    name: newName(),
    type: v.optional(v.pipe(v.picklist(TRACE_TYPES, 'err.oneOf'), v.title('trace.field.type')), 'clientid'),
    value: v.pipe(v.string(), v.title('trace.field.value'), v.description('trace.hint.value'), v.minLength(1, 'err.required')),
    start: dateArg('trace.field.start', { requiredKey: 'trace.err.startEnd' }),
    end: dateArg('trace.field.end', { requiredKey: 'trace.err.startEnd' }),
    payload_encode: v.optional(v.pipe(v.picklist(TRACE_PAYLOAD_ENCODES, 'err.oneOf'), v.title('trace.field.payloadEncode')), 'text'),
    formatter: v.optional(v.pipe(v.picklist(TRACE_FORMATTERS, 'err.oneOf'), v.title('trace.field.formatter')), 'text'),
  }),
  positional: ['name', 'type', 'value'],
  aliases: ['trace', 'log trace', 'new trace', '日志追踪', '创建追踪'],
  complete: { value: completeValue },
  suggestOnly: ['value'],
  describe: ({ name, type, value }) => ({ key: 'cmd.trace.createDescribe', values: { name, type, value } }),
  run: (ctx, { name, type, value, start, end, payload_encode, formatter }) => {
    // Resolved once, against one clock, so '+1h' and 'now' name the span the operator meant.
    const now = Date.now()
    return ctx.api.trace.create({
      name,
      type,
      [type]: value,
      start_at: resolveDateInput(start, now),
      end_at: resolveDateInput(end, now),
      payload_encode,
      formatter,
    })
  },
  resultText: (trace: Trace) => ({ key: `cmd.trace.created.${trace.status}`, values: { name: trace.name } }),
})

const nameArgs = v.object({ name: existingName() })

export const stopTrace = defineCommand({
  id: 'trace.stop',
  title: 'cmd.trace.stop',
  group: GROUP,
  changes: ['trace'],
  args: nameArgs,
  positional: ['name'],
  danger: true,
  aliases: ['stop trace', '停止追踪'],
  complete: { name: completeTraceName((trace) => trace.status !== 'stopped') },
  describe: ({ name }) => ({ key: 'cmd.trace.stopDescribe', values: { name } }),
  run: (ctx, { name }) => ctx.api.trace.stop(name),
})

export const deleteTrace = defineCommand({
  id: 'trace.delete',
  title: 'cmd.trace.delete',
  group: GROUP,
  changes: ['trace'],
  args: nameArgs,
  positional: ['name'],
  danger: true,
  aliases: ['remove trace', '删除追踪'],
  complete: { name: completeTraceName() },
  describe: ({ name }) => ({ key: 'cmd.trace.deleteDescribe', values: { name } }),
  run: (ctx, { name }) => ctx.api.trace.delete(name),
})

export const deleteAllTraces = defineCommand({
  id: 'trace.deleteAll',
  title: 'cmd.trace.deleteAll',
  group: GROUP,
  changes: ['trace'],
  args: v.object({}),
  danger: true,
  aliases: ['clear traces', '清空追踪'],
  describe: () => ({ key: 'cmd.trace.deleteAllDescribe' }),
  run: (ctx) => ctx.api.trace.clear(),
})

/** One row of `traces.list`: what the list screen shows, the filter under one key. */
export interface TraceRow {
  name: string
  type: TraceType
  condition: string
  start: string
  end: string
  status: Trace['status']
  /** Bytes, every node's file together. */
  size: number
}

export function traceRow(trace: Trace): TraceRow {
  return {
    name: trace.name,
    type: trace.type,
    condition: traceFilter(trace),
    start: trace.start_at,
    end: trace.end_at,
    status: trace.status,
    size: Object.values(trace.log_size).reduce((sum, bytes) => sum + bytes, 0),
  }
}

/** The traces as the terminal pane and the CLI print them: EMQX's own words, the same in every language. */
export const listTraces = defineRead({
  id: 'traces.list',
  title: 'cmd.trace.list',
  group: GROUP,
  args: v.object({}),
  aliases: ['traces', 'show traces', '追踪列表'],
  run: async (ctx) => (await ctx.api.trace.list()).map(traceRow),
  table: (rows: TraceRow[]) =>
    tableOf<TraceRow>(
      [
        ['name', (r) => r.name],
        ['status', (r) => r.status],
        ['type', (r) => r.type],
        ['condition', (r) => r.condition],
        ['start', (r) => shortTime(r.start)],
        ['end', (r) => shortTime(r.end)],
        ['size', (r) => r.size],
      ],
      rows,
    ),
})

/** One node's file of a trace; the answering node's when absent. */
const nodeArg = v.optional(v.pipe(v.string(), v.title('trace.field.node')))
const completeNode: Completer = async (api, query, signal) => (await api.cluster.info(signal)).nodes.filter((node) => node.includes(query))

export const downloadTrace = defineCommand({
  id: 'trace.download',
  title: 'cmd.trace.download',
  group: GROUP,
  readOnly: true,
  args: v.object({ name: existingName(), node: nodeArg }),
  positional: ['name'],
  aliases: ['download trace', '下载追踪'],
  complete: { name: completeTraceName(), node: completeNode },
  run: async (ctx, { name, node }) => {
    const file = await ctx.api.trace.download(name, node || undefined).catch((error: unknown) => {
      // SPEC 8: a download that takes too long points at the file on the server.
      throw error instanceof ApiError && error.code === 'ECONNABORTED' ? new CommandError({ key: 'cmd.trace.downloadTimeout' }) : error
    })
    // The name EMQX's content-disposition gives it.
    const filename = `${name}.zip`
    ctx.ui?.saveFile?.(filename, file)
    return { filename, size: file.size }
  },
  resultText: ({ filename, size }: { filename: string; size: number }) => ({ key: 'cmd.trace.downloaded', values: { filename, size } }),
})

export interface FollowResult {
  name: string
  lines: number
  ended: FollowEnd
}

export const followTrace = defineCommand({
  id: 'trace.follow',
  title: 'cmd.trace.follow',
  group: GROUP,
  readOnly: true,
  args: v.object({ name: existingName(), node: nodeArg }),
  positional: ['name'],
  aliases: ['tail trace', 'watch trace', '跟踪日志', '实时追踪'],
  complete: { name: completeTraceName(), node: completeNode },
  describe: ({ name }) => ({ key: 'cmd.trace.followDescribe', values: { name } }),
  resultText: (result: FollowResult) => ({ key: `cmd.trace.followEnded.${result.ended}`, values: { name: result.name, count: result.lines } }),
  async run(ctx, { name, node }): Promise<FollowResult> {
    // Fails at once (404 NOT FOUND) on a trace that is not there, before any stream opens.
    await ctx.api.trace.logDetail(name)
    // A node the cluster does not have: 404 `Node NOT FOUND`, before any stream opens.
    if (node) await ctx.api.trace.log(name, { node, bytes: 0 })
    const stream = ctx.live?.open('trace.follow')
    const signal = stream?.signal ?? new AbortController().signal
    let lines = 0
    try {
      stream?.line({ key: 'cmd.trace.following', values: { name } })
      const ended = await followTraceLog(ctx.api, name, {
        signal,
        node: node || undefined,
        onLines: (chunk) => {
          lines += chunk.length
          for (const line of chunk) stream?.line(line)
        },
      })
      return { name, lines, ended }
    } finally {
      stream?.close()
    }
  },
})

export const traceCommands = [createTrace, stopTrace, deleteTrace, deleteAllTraces, listTraces, downloadTrace, followTrace]
