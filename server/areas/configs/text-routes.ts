// GET/PUT /configs: the whole config as HOCON text (or 5.8's legacy JSON), and HOCON loaded
// live. A PUT checks every root it names before it changes any: a root this server does not hold,
// a read-only root or a bad value is a 400 (text/plain, as 5.8) and nothing changes.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { configsErrors } from '../../../contract/configs.ts'
import { ApiError, badRequest, contractError } from '../../http/errors.ts'
import type { AreaDeps } from '../area.ts'
import { HIDDEN_ROOTS, JSON_ROOTS, READONLY_ROOTS, type ConfigRoots } from './all-roots.ts'
import { HoconError, parseHocon, printHocon } from './hocon.ts'
import type { ConfigRoot, LoadMode } from './roots.ts'

type Query = Record<string, string | undefined>

/** 5.8's find_suitable_accept: `*\/*` or no Accept is text/plain; else the first of ours it names. */
function acceptOf(header: string | undefined): 'text/plain' | 'application/json' | undefined {
  const types = (header ?? '*/*').split(',').map((part) => part.split(';')[0].trim())
  if (types.includes('*/*')) return 'text/plain'
  return (['text/plain', 'application/json'] as const).find((type) => types.includes(type))
}

function rootsOf(all: Record<string, ConfigRoot>, names: readonly string[]) {
  return Object.fromEntries(names.filter((name) => all[name]).map((name) => [name, all[name].current()]))
}

/** A refused PUT /configs as 5.8 answers it: text/plain holding a JSON object of the errors. */
function loadFailed(reply: FastifyReply, errors: unknown) {
  return reply.code(400).type('text/plain').send(JSON.stringify({ errors }))
}

function flag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === 'false') return false
  if (value === 'true') return true
  throw badRequest(`${name} must be true or false`)
}

export async function configsTextRoutes(app: FastifyInstance, { feature }: AreaDeps<ConfigRoots>): Promise<void> {
  const { all, node } = feature
  const textRoots = Object.keys(all).filter((name) => !HIDDEN_ROOTS.includes(name))
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, body))

  app.get('/configs', async (request, reply) => {
    const query = request.query as Query
    const accept = acceptOf(request.headers.accept)
    if (!accept) throw contractError(configsErrors.invalidAccept, '{error,no_suitable_accept}')
    if (query.node !== undefined && query.node !== node) throw contractError(configsErrors.notFound, `Bad node ${query.node}, reason not found`)
    if (accept === 'application/json') return rootsOf(all, JSON_ROOTS)
    if (query.key !== undefined && !textRoots.includes(query.key)) throw badRequest(`key must be one of ${textRoots.join(', ')}`)
    return reply.type('text/plain').send(printHocon(rootsOf(all, query.key !== undefined ? [query.key] : textRoots)))
  })

  app.put('/configs', async (request, reply) => {
    const query = request.query as Query
    const mode = (query.mode ?? 'merge') as LoadMode
    if (mode !== 'merge' && mode !== 'replace') throw badRequest('mode must be merge or replace')
    const ignoreReadonly = flag(query.ignore_readonly, 'ignore_readonly')
    let conf: Record<string, unknown>
    if (typeof request.body === 'string') {
      try {
        conf = parseHocon(request.body)
      } catch (error) {
        if (error instanceof HoconError) return loadFailed(reply, { type: 'parse_error', reason: error.message, line: error.line })
        throw error
      }
    } else if (request.body && typeof request.body === 'object' && !Array.isArray(request.body)) conf = request.body as Record<string, unknown>
    else return loadFailed(reply, { type: 'parse_error', reason: 'the body must be HOCON text (content-type: text/plain)' })

    const readonly = READONLY_ROOTS.filter((root) => root in conf)
    if (readonly.length > 0 && !ignoreReadonly) return loadFailed(reply, `Cannot update read-only key '${readonly.join(',')}'.`)
    const errors: Record<string, string> = {}
    const changes: Array<() => void> = []
    const refused = (name: string, error: unknown) => {
      if (!(error instanceof ApiError)) throw error
      errors[name] ??= error.message
    }
    const prepared: Array<[string, ConfigRoot]> = []
    for (const [name, value] of Object.entries(conf)) {
      if (READONLY_ROOTS.includes(name)) continue
      const root = all[name]
      if (!root) {
        errors[name] = `not supported by the embedded server (it holds: ${Object.keys(all).join(', ')})`
        continue
      }
      try {
        changes.push(root.prepare(value, mode))
        prepared.push([name, root])
      } catch (error) {
        refused(name, error)
      }
    }
    for (const [name, root] of prepared) {
      try {
        root.settle?.()
      } catch (error) {
        refused(name, error)
      }
    }
    if (Object.keys(errors).length > 0) return loadFailed(reply, errors)
    for (const change of changes) change()
    return reply.code(200).send()
  })
}

