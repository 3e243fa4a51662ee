// How EMQX's HTTP connector names a failed request and whether it is worth another try
// (emqx_bridge_http_connector:transform_result/1): a refused, closed or timed-out connection is
// recoverable, and so are the answers 429 Too Many Requests and 503 Service Unavailable; every
// other status outside 2xx is final. Reasons are written as EMQX's (econnrefused, timeout, closed).

const BY_CODE: Record<string, string> = {
  ECONNREFUSED: 'econnrefused',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ECONNRESET: 'closed',
  EPIPE: 'closed',
  UND_ERR_SOCKET: 'closed',
  UND_ERR_CLOSED: 'closed',
  // The connector stopped (or restarts) under a request in flight: the row is worth sending again.
  UND_ERR_DESTROYED: 'closed',
  ENOTFOUND: 'nxdomain',
  EAI_AGAIN: 'nxdomain',
  EHOSTUNREACH: 'ehostunreach',
  ENETUNREACH: 'enetunreach',
}

const RECOVERABLE = new Set(['econnrefused', 'timeout', 'closed'])

/** A connection error's reason as EMQX writes it, or the error's own message. */
export function errorReason(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorReason(error.errors[0])
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && BY_CODE[code]) return BY_CODE[code]
    if (error.name === 'TimeoutError') return 'timeout'
    return error.message || (typeof code === 'string' ? code : error.name)
  }
  return String(error)
}

/** A request that cannot be made at all (a rendered header value with a line break): trying again is the same. */
export function isMalformedRequest(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === 'UND_ERR_INVALID_ARG'
}

/** True for the failures EMQX answers `recoverable_error` to. */
export function retryableReason(reason: string): boolean {
  return RECOVERABLE.has(reason)
}

export function isRecoverableStatus(status: number): boolean {
  return status === 429 || status === 503
}
