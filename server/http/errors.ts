// Errors as EMQX shapes them: an HTTP status plus `{code, message}`, for every failure the API can
// produce, including Fastify's own (bad JSON, unknown route) and valibot validation.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import * as v from 'valibot'
import { ApiError } from '../../contract/api-error.ts'
import { log } from '../log/index.ts'

export { ApiError }

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BAD_REQUEST', message)
}

/**
 * The ApiError of one of a contract's errors (see contract/<area>.ts): `{status, code}` with EMQX's
 * message given here, or `{status, code, message}` when the contract fixes the message too.
 */
export function contractError(error: { status: number; code: string; message: string }, message?: string): ApiError
export function contractError(error: { status: number; code: string }, message: string): ApiError
export function contractError(error: { status: number; code: string; message?: string }, message?: string): ApiError {
  return new ApiError(error.status, error.code, message ?? error.message ?? error.code)
}

/** Parses request input with a valibot schema; the first problem becomes a 400 BAD_REQUEST. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown, what: string): v.InferOutput<S> {
  const result = v.safeParse(schema, input)
  if (result.success) return result.output
  const issue = result.issues[0]
  const path = v.getDotPath(issue)
  // A missing key: valibot's text ('Invalid key: Expected "server" but received undefined') says it obscurely.
  const missing = issue.kind === 'schema' && issue.type === 'object' && issue.received === 'undefined' && issue.message.startsWith('Invalid key')
  const message = missing ? 'required field' : issue.message
  throw badRequest(path ? `${what} ${path}: ${message}` : `${what}: ${message}`)
}

export function notFoundBody(request: FastifyRequest) {
  return { code: 'NOT_FOUND', message: `Request path not found: ${request.method} ${request.url.split('?')[0]}` }
}


export function registerErrorHandling(app: FastifyInstance, notFound: (request: FastifyRequest, reply: FastifyReply) => unknown): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return reply.status(error.status).send({ code: error.code, message: error.message })
    const status = error.statusCode ?? 500
    if (status === 404) return reply.status(404).send(notFoundBody(request))
    // Proxy mode: the EMQX behind EMQX_API_URL did not answer (refused, reset, timed out).
    if (error.code?.startsWith('FST_REPLY_FROM_')) {
      const cause = error.cause instanceof Error ? error.cause.message : error.message
      return reply.status(status === 504 ? 504 : 503).send({ code: 'SERVICE_UNAVAILABLE', message: `EMQX is unreachable: ${cause}` })
    }
    if (status >= 500) {
      log.error({ method: request.method, path: request.url.split('?')[0], err: error }, 'api_request_failed')
      return reply.status(500).send({ code: 'INTERNAL_ERROR', message: 'Internal server error' })
    }
    // Fastify's own request errors (malformed JSON, empty JSON body, unsupported media type, too large).
    return reply.status(status === 413 ? 413 : 400).send({ code: 'BAD_REQUEST', message: error.message })
  })
  app.setNotFoundHandler(notFound)
}
