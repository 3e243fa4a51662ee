// The one HTTP client every API module uses: EMQX v5 base path, bearer token or API key, errors as values.
import ky, { isHTTPError, isNetworkError, isTimeoutError, type KyInstance } from 'ky'
import * as v from 'valibot'
import { ApiError } from '../../contract/api-error.ts'

export type Credentials =
  | { kind: 'token'; token: string }
  | { kind: 'apiKey'; key: string; secret: string }
  | { kind: 'none' }

export interface HttpOptions {
  /** Origin (and optional path) of the console or EMQX, e.g. '' in the browser, 'http://127.0.0.1:18083' in Node. */
  origin: string
  credentials: () => Credentials
  /** Called on a 401 from any call but login, after which the error still propagates. */
  onUnauthorized?: (error: ApiError) => void
  fetch?: typeof globalThis.fetch
  /** How long a file download (a trace's zip) may take; EMQX's console gives 45 s. */
  downloadTimeoutMs?: number
}

export interface Http {
  ky: KyInstance
  downloadTimeoutMs?: number
  get<T>(path: string, schema: v.GenericSchema<unknown, T>, searchParams?: SearchParams, signal?: AbortSignal): Promise<T>
  send<T>(method: 'post' | 'put' | 'delete', path: string, schema: v.GenericSchema<unknown, T> | null, json?: unknown): Promise<T>
}

export type SearchParams = Record<string, string | number | boolean | undefined>

const errorBody = v.object({ code: v.string(), message: v.optional(v.string(), '') })

function base64(text: string): string {
  return typeof btoa === 'function' ? btoa(text) : Buffer.from(text).toString('base64')
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  if (isHTTPError(error)) {
    const parsed = v.safeParse(errorBody, error.data)
    const status = error.response.status
    if (parsed.success) return new ApiError(status, parsed.output.code, parsed.output.message || parsed.output.code)
    return new ApiError(status, `HTTP_${status}`, error.response.statusText || `HTTP ${status}`)
  }
  if (isTimeoutError(error)) return new ApiError(0, 'ECONNABORTED', 'Network Error')
  if (isNetworkError(error)) return new ApiError(0, 'NETWORK_ERROR', 'Network Error')
  if (error instanceof v.ValiError) return new ApiError(0, 'BAD_RESPONSE', error.message)
  if (error instanceof Error && error.name === 'AbortError') return new ApiError(0, 'ABORTED', 'Aborted')
  return new ApiError(0, 'NETWORK_ERROR', error instanceof Error ? error.message : String(error))
}

function cleanParams(params: SearchParams | undefined): Record<string, string> | undefined {
  if (!params) return undefined
  const out: Record<string, string> = {}
  for (const [k, value] of Object.entries(params)) if (value !== undefined && value !== '') out[k] = String(value)
  return out
}

export function createHttp(options: HttpOptions): Http {
  const instance = ky.create({
    baseUrl: `${options.origin.replace(/\/$/, '')}/api/v5/`,
    timeout: 30_000,
    retry: 0,
    fetch: options.fetch,
    hooks: {
      beforeRequest: [
        ({ request }) => {
          const credentials = options.credentials()
          if (credentials.kind === 'token') request.headers.set('Authorization', `Bearer ${credentials.token}`)
          if (credentials.kind === 'apiKey')
            request.headers.set('Authorization', `Basic ${base64(`${credentials.key}:${credentials.secret}`)}`)
        },
      ],
    },
  })

  async function call<T>(work: () => Promise<T>, path: string): Promise<T> {
    try {
      return await work()
    } catch (error) {
      const apiError = toApiError(error)
      if (apiError.status === 401 && path !== 'login') options.onUnauthorized?.(apiError)
      throw apiError
    }
  }

  return {
    ky: instance,
    ...(options.downloadTimeoutMs !== undefined ? { downloadTimeoutMs: options.downloadTimeoutMs } : {}),
    get(path, schema, searchParams, signal) {
      return call(async () => v.parse(schema, await instance.get(path, { searchParams: cleanParams(searchParams), signal }).json()), path)
    },
    send(method, path, schema, json) {
      return call(async () => {
        const response = await instance(path, { method, json })
        if (schema === null) return undefined as never
        const text = await response.text()
        return v.parse(schema, text ? JSON.parse(text) : undefined)
      }, path)
    },
  }
}

/** The paged list envelope EMQX uses: `{data, meta: {page, limit, count?, hasnext}}` (contract/paging.ts). */
export { paged } from '../../contract/paging.ts'
