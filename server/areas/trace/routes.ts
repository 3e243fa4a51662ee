// /trace: list, create, clear; /trace/{name}: delete; /trace/{name}/stop, /log, /log_detail,
// /download. Bodies, queries and answers are the contract's; the checks after the schema and their
// order are emqx_trace:create/1's (count, name, filter, end time, start before end, name, condition).
import { isIP } from 'node:net'
import type { FastifyInstance } from 'fastify'
import {
  TRACE_DEFAULT_DURATION_S,
  TRACE_MAX_COUNT,
  TraceCreateBody,
  TraceDownloadQuery,
  traceErrors,
  TraceLogQuery,
  traceMessages,
  traceNameProblem,
  type Trace,
  type TraceLog,
  type TraceLogDetail,
} from '../../../contract/trace.ts'
import { isValidFilter } from '../../broker/topic-trie.ts'
import { zipArchive } from '../../trace/zip.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import { isOutOfMemory, nowSecond, traceFileName, traceStatus, type TraceFeature } from './feature.ts'
import { log } from '../../log/index.ts'
import type { TraceRecord } from './store.ts'

const pad = (n: number) => String(n).padStart(2, '0')

/** RFC 3339 to the second in local time, as emqx_utils_calendar:epoch_to_rfc3339(T, second). */
export function rfc3339Second(seconds: number): string {
  const d = new Date(seconds * 1000)
  const offset = -d.getTimezoneOffset()
  const abs = Math.abs(offset)
  const zone = offset === 0 ? 'Z' : `${offset > 0 ? '+' : '-'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${zone}`
}

/** emqx_topic:validate(filter, T)'s reason, as `~p` prints it. */
function topicProblem(filter: string): string | undefined {
  if (isValidFilter(filter)) return undefined
  if (filter === '') return 'empty_topic'
  if (filter.includes('\u0000')) return 'topic_invalid_char'
  if (Buffer.byteLength(filter) > 65535) return 'topic_too_long'
  return filter.split('/').some((level) => level.includes('#') && level !== '#') || /#./.test(filter) ? "'topic_invalid_#'" : "'topic_invalid_+'"
}

const invalid = (message: string) => contractError(traceErrors.invalidParams, message)

function traceJson(trace: TraceRecord, node: string, logSize: number, endAt = trace.endAt): Trace {
  return {
    name: trace.name,
    type: trace.type,
    [trace.type]: trace.filter,
    payload_encode: trace.payloadEncode,
    formatter: trace.formatter,
    start_at: rfc3339Second(trace.startAt),
    end_at: rfc3339Second(endAt),
    status: traceStatus(trace),
    log_size: { [node]: logSize },
  } as Trace
}

export async function traceRoutes(app: FastifyInstance, deps: { feature: TraceFeature }): Promise<void> {
  const traces = deps.feature
  const found = (name: string): TraceRecord => {
    const trace = traces.repository.find(name)
    if (!trace) throw contractError(traceErrors.notFound, traceMessages.notFound(name))
    return trace
  }
  const checkNode = (node: string | undefined) => {
    if (node !== undefined && node !== traces.node) throw contractError(traceErrors.notFound, traceMessages.nodeNotFound)
  }
  const checkName = (name: string) => {
    const problem = traceNameProblem(name)
    if (problem) throw contractError(traceErrors.badRequest, problem)
  }

  app.get('/trace', async (): Promise<Trace[]> => traces.repository.list().map((trace) => traceJson(trace, traces.node, traces.size(trace))))

  app.post('/trace', async (request): Promise<Trace> => {
    const body = parseInput(TraceCreateBody, request.body, 'body')
    if (traces.repository.count() >= TRACE_MAX_COUNT) throw invalid(traceMessages.tooMany)
    const filter = body[body.type]
    if (filter === undefined) throw invalid(traceMessages.required(body.type))
    if (body.type === 'topic') {
      const problem = topicProblem(filter)
      if (problem) throw invalid(`topic: ${filter} invalid by ${problem}`)
    }
    if (body.type === 'ip_address' && isIP(filter) === 0) throw invalid('ip address: einval')
    const now = nowSecond()
    if (body.end_at !== undefined && Math.max(now, body.end_at) <= now) throw invalid(traceMessages.endPassed)
    const startAt = body.start_at ?? now
    const endAt = body.end_at ?? startAt + TRACE_DEFAULT_DURATION_S
    if (endAt <= startAt) throw invalid(traceMessages.startAfterEnd)
    if (traces.repository.find(body.name)) throw contractError(traceErrors.alreadyExists, traceMessages.alreadyExists(body.name))
    const same = traces.repository.findSameCondition(body.type, filter, startAt)
    if (same) throw contractError(traceErrors.duplicateCondition, traceMessages.duplicate(same.name))
    const trace: TraceRecord = { name: body.name, type: body.type, filter, enable: true, payloadEncode: body.payload_encode, formatter: body.formatter, startAt, endAt }
    traces.repository.insert(trace)
    traces.update()
    // 5.8 answers the start time as end_at too (format_trace/1); GET /trace shows the true end.
    return traceJson(trace, traces.node, 0, trace.startAt)
  })

  app.delete('/trace', async (_request, reply) => {
    traces.clear()
    return reply.status(204).send()
  })

  app.delete<{ Params: { name: string } }>('/trace/:name', async (request, reply) => {
    checkName(request.params.name)
    if (!traces.delete(request.params.name)) throw contractError(traceErrors.notFound, traceMessages.notFound(request.params.name))
    return reply.status(204).send()
  })

  app.put<{ Params: { name: string } }>('/trace/:name/stop', async (request) => {
    const { name } = request.params
    checkName(name)
    if (!traces.stopTrace(name)) throw contractError(traceErrors.notFound, traceMessages.notFound(name))
    return { enable: false, name }
  })

  app.get<{ Params: { name: string } }>('/trace/:name/log_detail', async (request): Promise<TraceLogDetail> => {
    checkName(request.params.name)
    const detail = traces.detail(found(request.params.name))
    return detail ? [{ node: traces.node, ...detail }] : []
  })

  app.get<{ Params: { name: string } }>('/trace/:name/log', async (request, reply) => {
    checkName(request.params.name)
    const query = parseInput(TraceLogQuery, request.query, 'query')
    checkNode(query.node)
    const trace = found(request.params.name)
    const meta = { position: query.position, bytes: query.bytes }
    let body: string
    try {
      // Made here, not by the reply's serializer: a chunk whose text or JSON is past what V8 can
      // hold (a file near its 512 MB bound read at once) is the 503, not a failed reply.
      const read = traces.readAt(trace, query.position, query.bytes)
      const page: TraceLog =
        read.kind === 'data'
          ? { items: read.bytes.toString('utf8'), meta: { ...meta, position: query.position + read.bytes.length } }
          : { items: '', meta: read.kind === 'eof' ? { ...meta, position: read.size } : meta }
      body = JSON.stringify(page)
    } catch (error) {
      if (!isOutOfMemory(error)) throw error
      log.warning({ code: 'not_enough_mem', bytes: query.bytes, name: trace.name }, 'Requested chunk size too big')
      throw contractError(traceErrors.chunkTooBig, traceMessages.chunkTooBig)
    }
    return reply.type('application/json; charset=utf-8').send(body)
  })

  app.get<{ Params: { name: string } }>('/trace/:name/download', async (request, reply) => {
    checkName(request.params.name)
    const query = parseInput(TraceDownloadQuery, request.query, 'query')
    const trace = found(request.params.name)
    checkNode(query.node)
    const content = traces.content(trace)
    if (!content || content.data.length === 0) throw contractError(traceErrors.notFound, traceMessages.empty)
    const zipName = `${trace.name}.zip`
    const zip = zipArchive([{ name: `${traces.node}-${traceFileName(trace.name, trace.startAt)}`, data: content.data, mtime: content.mtime }])
    return reply.header('content-type', 'application/x-zip').header('content-disposition', `attachment; filename=${zipName}`).send(zip)
  })
}

