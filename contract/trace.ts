// Log traces (EMQX `/trace`), written once for the server and the browser: the create body, the
// trace as listed, the log page and file detail, and the errors. EMQX 5.8.9 emqx_mgmt_api_trace and
// emqx_trace settle the wording; a trace writes every matching event of its client, topic, address
// or rule into one file per node from `start_at` to `end_at`.
import * as v from 'valibot'
import { parseTimeFilter } from './time.ts'

export const TRACE_TYPES = ['clientid', 'topic', 'ip_address', 'ruleid'] as const
export type TraceType = (typeof TRACE_TYPES)[number]

export const TRACE_PAYLOAD_ENCODES = ['text', 'hex', 'hidden'] as const
export type TracePayloadEncode = (typeof TRACE_PAYLOAD_ENCODES)[number]

export const TRACE_FORMATTERS = ['text', 'json'] as const
export type TraceFormatter = (typeof TRACE_FORMATTERS)[number]

export const TRACE_STATUSES = ['waiting', 'running', 'stopped'] as const
export type TraceStatus = (typeof TRACE_STATUSES)[number]

/** EMQX's name rule (`emqx_mgmt_api_trace:validate_name/1`), 1 to 256 bytes. */
export const TRACE_NAME_RE = /^[A-Za-z]+[A-Za-z0-9-_]*$/
export const TRACE_NAME_MAX = 256
/** At most this many traces exist at once (`?MAX_SIZE`). */
export const TRACE_MAX_COUNT = 30
/** A trace without `end_at` runs for ten minutes from its start. */
export const TRACE_DEFAULT_DURATION_S = 10 * 60
/** The size at which a trace's file stops growing (the handler's `max_no_bytes`, type `halt`). */
export const TRACE_MAX_FILE_BYTES = 512 * 1024 * 1024
/** `bytes` of `/trace/{name}/log`: 0..2^31-1, 1000 by default. */
export const TRACE_LOG_MAX_BYTES = 2147483647
export const TRACE_LOG_DEFAULT_BYTES = 1000

/** The messages EMQX answers (the ones built around a name are functions). */
export const traceMessages = {
  nameRule: 'Name should be ^[A-Za-z]+[A-Za-z0-9-_]*$',
  nameLength: 'Name Length must =< 256',
  tooMany: 'The number of traces created has reached the maximum please delete the useless ones first',
  startAfterEnd: 'failed by start_at >= end_at',
  endPassed: 'end_at time has already passed',
  required: (type: TraceType) => `required ${type} field`,
  alreadyExists: (name: string) => `${name} Already Exists`,
  duplicate: (other: string) => `${other} Duplication Condition`,
  notFound: (name: string) => `${name} NOT FOUND`,
  nodeNotFound: 'Node NOT FOUND',
  empty: 'Trace is empty',
  chunkTooBig: 'Requested chunk size too big',
} as const

/** A trace name: the message of the first rule it breaks, or undefined. */
export function traceNameProblem(name: string): string | undefined {
  const bytes = new TextEncoder().encode(name).length
  if (bytes === 0 || bytes > TRACE_NAME_MAX) return traceMessages.nameLength
  return TRACE_NAME_RE.test(name) ? undefined : traceMessages.nameRule
}

/** `start_at`/`end_at`: RFC 3339 or epoch seconds (milliseconds from 10^11), read as epoch seconds. */
const traceTime = v.union(
  [
    v.pipe(v.number(), v.integer(), v.transform((n) => (n < 1e11 ? n : Math.floor(n / 1000)))),
    v.pipe(
      v.string(),
      v.transform(parseTimeFilter),
      v.number(),
      v.transform((ms) => Math.floor(ms / 1000)),
    ),
  ],
  'must be an RFC 3339 time or epoch seconds',
)

/**
 * `POST /trace`. The filter is the field named by `type`; its absence and the time rules are checked
 * after the schema, with EMQX's INVALID_PARAMS messages. Times are epoch seconds after parsing.
 * EMQX fills a missing `start_at` with now and a missing `end_at` with `start_at` + 10 minutes; the
 * console's form asks for both (SPEC 5: "Trace needs start and end time").
 */
export const TraceCreateBody = v.object({
  name: v.pipe(v.string('required field'), v.check((name) => traceNameProblem(name) === undefined, (issue) => traceNameProblem(String(issue.input)) ?? '')),
  type: v.picklist(TRACE_TYPES, `must be one of ${TRACE_TYPES.join(', ')}`),
  clientid: v.optional(v.string()),
  topic: v.optional(v.string()),
  ip_address: v.optional(v.string()),
  ruleid: v.optional(v.string()),
  payload_encode: v.optional(v.picklist(TRACE_PAYLOAD_ENCODES, `must be one of ${TRACE_PAYLOAD_ENCODES.join(', ')}`), 'text'),
  formatter: v.optional(v.picklist(TRACE_FORMATTERS, `must be one of ${TRACE_FORMATTERS.join(', ')}`), 'text'),
  start_at: v.optional(traceTime),
  end_at: v.optional(traceTime),
})
export type TraceCreateInput = v.InferInput<typeof TraceCreateBody>

/**
 * One trace as `GET /trace` lists it (newest `start_at` first) and `POST /trace` answers it: the
 * filter under the type's own key, times as RFC 3339 to the second in local time, `log_size` per
 * node in bytes. 5.8's POST answer repeats `start_at` as `end_at` (kept: it is the contract).
 */
export const TraceSchema = v.object({
  name: v.string(),
  type: v.picklist(TRACE_TYPES),
  clientid: v.optional(v.string()),
  topic: v.optional(v.string()),
  ip_address: v.optional(v.string()),
  ruleid: v.optional(v.string()),
  payload_encode: v.picklist(TRACE_PAYLOAD_ENCODES),
  formatter: v.optional(v.picklist(TRACE_FORMATTERS), 'text'),
  start_at: v.string(),
  end_at: v.string(),
  status: v.picklist(TRACE_STATUSES),
  log_size: v.record(v.string(), v.number()),
})
export type Trace = v.InferOutput<typeof TraceSchema>

export const TraceListSchema = v.array(TraceSchema)

/** The filter of a trace, whichever key its type puts it under. */
export function traceFilter(trace: Pick<Trace, TraceType | 'type'>): string {
  return trace[trace.type] ?? ''
}

/** `PUT /trace/{name}/stop` answers only this. */
export const TraceStoppedSchema = v.object({ enable: v.literal(false), name: v.string() })

const queryInteger = (min: number, max: number) =>
  v.union([
    v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max)),
    v.pipe(v.string(), v.regex(/^-?\d+$/, 'must be an integer'), v.transform(Number), v.integer(), v.minValue(min), v.maxValue(max)),
  ], `must be an integer between ${min} and ${max}`)

/** `GET /trace/{name}/log`: read `bytes` from byte `position` of one node's file (this node by default). */
export const TraceLogQuery = v.object({
  bytes: v.optional(queryInteger(0, TRACE_LOG_MAX_BYTES), TRACE_LOG_DEFAULT_BYTES),
  position: v.optional(queryInteger(0, Number.MAX_SAFE_INTEGER), 0),
  node: v.optional(v.string()),
})

/**
 * The log chunk: `items` is the text read, `meta.position` where the next read starts. At the end
 * of the file `items` is "" and `position` the file's size; before the file exists `items` is ""
 * and `position` the one asked.
 */
export const TraceLogSchema = v.object({
  items: v.string(),
  meta: v.object({ position: v.number(), bytes: v.number() }),
})
export type TraceLog = v.InferOutput<typeof TraceLogSchema>

/** `GET /trace/{name}/log_detail`: one entry per node holding the file; `mtime` in epoch seconds. */
export const TraceLogDetailSchema = v.array(v.object({ node: v.string(), size: v.number(), mtime: v.number() }))
export type TraceLogDetail = v.InferOutput<typeof TraceLogDetailSchema>

/** `GET /trace/{name}/download`: which node's file (every node's by default). */
export const TraceDownloadQuery = v.object({ node: v.optional(v.string()) })

/** The errors of this area: status and EMQX code (the messages are `traceMessages`). */
export const traceErrors = {
  /** 400: a body or query the schema refuses (name rule, enums, times, `bytes` out of range). */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 400: the filter missing, a bad topic or address, start after end, end passed, 30 traces. */
  invalidParams: { status: 400, code: 'INVALID_PARAMS' },
  /** 409: a trace of this name exists. */
  alreadyExists: { status: 409, code: 'ALREADY_EXISTS' },
  /** 409: a trace with the same type, filter and start second exists (its name in the message). */
  duplicateCondition: { status: 409, code: 'DUPLICATE_CONDITION' },
  /** 404: no such trace, no such node, or (download) nothing written yet. */
  notFound: { status: 404, code: 'NOT_FOUND' },
  /** 503: a `bytes` too big to read in memory. */
  chunkTooBig: { status: 503, code: 'SERVICE_UNAVAILABLE' },
} as const
