// The HTTP server: the console's static files with SPA fallback, and /api/v5 either served by the
// embedded broker and store or proxied to a real EMQX.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyHttpProxy from '@fastify/http-proxy'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { AreaContext, ServerArea } from '../areas/area.ts'
import { notFoundBody, registerErrorHandling } from './errors.ts'
import { registerRequestBodies } from './request-body.ts'
import { registerSecurityHeaders, type SecurityOptions } from './security-headers.ts'

export const API_PREFIX = '/api/v5'

/** Builds the app around the embedded broker and store: every area's routes under /api/v5, behind
 * the areas' request guards. `distDir` is served when it holds a build. */
export async function buildEmbeddedApp(areas: readonly ServerArea[], context: AreaContext, distDir: string, security: SecurityOptions = {}): Promise<FastifyInstance> {
  const app = createApp(distDir, security)
  await app.register(
    async (api) => {
      registerRequestBodies(api)
      for (const area of areas) if (area.requestGuard) api.addHook('onRequest', area.requestGuard(context))
      for (const area of areas) for (const routes of area.routes) await api.register(async (scope) => routes(scope, context))
    },
    { prefix: API_PREFIX },
  )
  await registerConsole(app, distDir)
  return app
}

/** Builds the app that forwards /api/v5 to a real EMQX at `emqxApiUrl` (with or without `/api/v5`). */
export async function buildProxyApp(emqxApiUrl: string, distDir: string, security: SecurityOptions = {}): Promise<FastifyInstance> {
  const target = new URL(emqxApiUrl)
  const basePath = target.pathname.replace(/\/+$/, '').replace(/\/api\/v5$/, '')
  const app = createApp(distDir, security)
  await app.register(fastifyHttpProxy, {
    upstream: target.origin,
    prefix: API_PREFIX,
    rewritePrefix: `${basePath}${API_PREFIX}`,
    http2: false,
  })
  await registerConsole(app, distDir)
  return app
}

function hasConsole(distDir: string): boolean {
  return existsSync(join(distDir, 'index.html'))
}

/** A client id or topic is up to 65535 bytes of UTF-8, each byte up to 3 characters percent-encoded. */
const MAX_PATH_PARAM = 65535 * 3
/** Request line and headers: room for such a path (Node's default is 16 KiB). */
const MAX_HEADER_BYTES = 256 * 1024

function createApp(distDir: string, security: SecurityOptions): FastifyInstance {
  // Stopping the server drops its connections, a request under way included, as EMQX's dashboard
  // listener does when the node stops: a shutdown never waits on a client.
  const app = Fastify({ logger: false, forceCloseConnections: true, routerOptions: { maxParamLength: MAX_PATH_PARAM }, http: { maxHeaderSize: MAX_HEADER_BYTES } })
  registerSecurityHeaders(app, security)
  const spa = hasConsole(distDir)
  registerErrorHandling(app, (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]
    const isApi = path === '/api' || path.startsWith('/api/')
    // The console routes in the browser: any page that is not a file gets index.html.
    if (spa && !isApi && (request.method === 'GET' || request.method === 'HEAD')) return reply.sendFile('index.html')
    return reply.status(404).send(notFoundBody(request))
  })
  return app
}

async function registerConsole(app: FastifyInstance, distDir: string): Promise<void> {
  if (!hasConsole(distDir)) return
  await app.register(fastifyStatic, { root: distDir, prefix: '/' })
}
