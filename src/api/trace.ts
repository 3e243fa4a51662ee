// Log traces (`/trace`): list, create, stop, delete, read a trace's log by byte position, its file
// detail per node, and the zip download.
import {
  TraceListSchema,
  TraceLogDetailSchema,
  TraceLogSchema,
  TraceSchema,
  TraceStoppedSchema,
  type Trace,
  type TraceCreateInput,
  type TraceLog,
  type TraceLogDetail,
} from '../../contract/trace.ts'
import { toApiError, type Http } from './http.ts'
import { pathSegment } from './clients.ts'

export {
  TRACE_FORMATTERS as traceFormatters,
  TRACE_PAYLOAD_ENCODES as tracePayloadEncodes,
  TRACE_STATUSES as traceStatuses,
  TRACE_TYPES as traceTypes,
  traceFilter,
  type Trace,
  type TraceCreateInput,
  type TraceFormatter,
  type TraceLog,
  type TraceLogDetail,
  type TracePayloadEncode,
  type TraceStatus,
  type TraceType,
} from '../../contract/trace.ts'

/** EMQX's console gives a download 45 seconds (SPEC 8: a slow download points at data/trace). */
export const TRACE_DOWNLOAD_TIMEOUT_MS = 45_000

export function traceApi(http: Http) {
  const one = (name: string) => `trace/${pathSegment(name)}`
  return {
    /** Every trace, newest start first. */
    list(signal?: AbortSignal): Promise<Trace[]> {
      return http.get('trace', TraceListSchema, {}, signal)
    },
    /** 409 ALREADY_EXISTS / DUPLICATE_CONDITION; 400 INVALID_PARAMS with EMQX's reason. */
    create(input: TraceCreateInput): Promise<Trace> {
      return http.send('post', 'trace', TraceSchema, input)
    },
    /** Stops a trace now; 404 NOT_FOUND when there is none of that name. */
    async stop(name: string): Promise<void> {
      await http.send('put', `${one(name)}/stop`, TraceStoppedSchema, undefined)
    },
    delete(name: string): Promise<void> {
      return http.send('delete', one(name), null)
    },
    /** Deletes every trace and its files. */
    clear(): Promise<void> {
      return http.send('delete', 'trace', null)
    },
    /** `bytes` from byte `position` of one node's file; pass back `meta.position` to read on. */
    log(name: string, params: { position?: number; bytes?: number; node?: string } = {}, signal?: AbortSignal): Promise<TraceLog> {
      return http.get(`${one(name)}/log`, TraceLogSchema, { ...params }, signal)
    },
    logDetail(name: string, signal?: AbortSignal): Promise<TraceLogDetail> {
      return http.get(`${one(name)}/log_detail`, TraceLogDetailSchema, {}, signal)
    },
    /** The zip of the trace's file on `node` (every node's when absent); 404 `Trace is empty` before any line. */
    async download(name: string, node?: string): Promise<Blob> {
      try {
        const query = node ? `?node=${encodeURIComponent(node)}` : ''
        return await http.ky.get(`${one(name)}/download${query}`, { timeout: http.downloadTimeoutMs ?? TRACE_DOWNLOAD_TIMEOUT_MS }).blob()
      } catch (error) {
        throw toApiError(error)
      }
    },
  }
}

export type TraceApi = ReturnType<typeof traceApi>
