// POST /configs_reset/{root} (a root, or one path below it, back to EMQX's defaults) and the roots
// no other area serves: /configs/dashboard, /configs/broker and /configs/limiter.
import type { FastifyInstance } from 'fastify'
import { configsErrors } from '../../../contract/configs.ts'
import { ApiError, badRequest, contractError } from '../../http/errors.ts'
import type { AreaDeps } from '../area.ts'
import { RESET_ROOTS, type ConfigRoots } from './all-roots.ts'

type Query = Record<string, string | undefined>

/** The value at a dotted path below a root; undefined when there is none. */
function at(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), value)
}

function withValue(value: unknown, path: readonly string[], next: unknown): unknown {
  if (path.length === 0) return next
  const node = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  return { ...node, [path[0]]: withValue(node[path[0]], path.slice(1), next) }
}

export async function configRootRoutes(app: FastifyInstance, { feature }: AreaDeps<ConfigRoots>): Promise<void> {
  const { all } = feature
  feature.listening.port = () => {
    const address = app.server.address()
    return typeof address === 'object' && address ? address.port : 0
  }

  app.post('/configs_reset/:rootname', async (request, reply) => {
    const { rootname } = request.params as { rootname: string }
    const confPath = (request.query as Query).conf_path
    if (!RESET_ROOTS.includes(rootname)) throw badRequest(`rootname must be one of ${RESET_ROOTS.join(', ')}`)
    const root = all[rootname]
    if (!root) throw contractError(configsErrors.resetFailed, `${rootname}: not held by the embedded server`)
    const path = confPath ? confPath.split('.').filter(Boolean) : []
    const fallback = at(root.defaults(), path)
    if (fallback === undefined) throw contractError(configsErrors.noDefaultValue)
    try {
      root.prepare(withValue(root.current(), path, fallback), 'replace')()
    } catch (error) {
      // A kept root cannot differ from its defaults; another refusal is the reset's.
      if (error instanceof ApiError) throw contractError(configsErrors.resetFailed, error.message)
      throw error
    }
    return reply.code(200).send()
  })

  for (const name of ['dashboard', 'broker', 'limiter'] as const) {
    const root = all[name]
    app.get(`/configs/${name}`, async () => root.current())
    app.put(`/configs/${name}`, async (request) => {
      root.prepare(request.body, 'merge')()
      return root.current()
    })
  }
}
