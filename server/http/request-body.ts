// Request bodies as EMQX 5.8 reads them (minirest): JSON when the content type says so, an empty
// body always accepted (curl scripts send `content-type: application/json` on DELETE), and a POST or
// PUT body of any other type refused with 415 instead of being read as text.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from './errors.ts'

/** Methods whose body EMQX reads against a schema; others ignore a body they do not expect. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH'])

export const unsupportedMediaType = () => new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'content-type:application/json Required')

/** Replaces Fastify's body parsers in `api`'s scope (the embedded API only, never the proxy). */
export function registerRequestBodies(api: FastifyInstance): void {
  const json = api.getDefaultJsonParser('error', 'error')
  api.removeAllContentTypeParsers()
  api.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString()
    if (text === '') return done(null, undefined)
    json(request, text, done)
  })
  api.addContentTypeParser('*', (request: FastifyRequest, payload, done) => {
    let size = 0
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length
    })
    payload.on('error', done)
    payload.on('end', () => {
      if (size > 0 && BODY_METHODS.has(request.method)) return done(unsupportedMediaType(), undefined)
      done(null, undefined)
    })
  })
}
