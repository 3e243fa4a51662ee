// The HTTP server: the console's static files with SPA fallback, and /api/v5 either served by the
// embedded broker and store or proxied to a real EMQX.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyHttpProxy from '@fastify/http-proxy'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { Broker } from '../broker/broker.ts'
import type { Features } from '../broker/features/index.ts'
import type { MonitorSampler } from '../broker/monitor.ts'
import { ApiKeyRepository } from '../store/api-keys.ts'
import type { Database } from '../store/db.ts'
import type { TokenRepository } from '../store/tokens.ts'
import type { UserRepository } from '../store/users.ts'
import { apiKeyRoutes } from './api-keys.ts'
import type { Auth } from './auth.ts'
import { alarmRoutes } from './alarms.ts'
import { authzCacheRoutes } from './authz-cache.ts'
import { autoSubscribeRoutes } from './auto-subscribe.ts'
import { bannedRoutes } from './banned.ts'
import { clientActionRoutes } from './client-actions.ts'
import { clientControlRoutes } from './client-controls.ts'
import { clientRoutes } from './clients.ts'
import { clientsV2Routes } from './clients-v2.ts'
import { configRoutes } from './configs.ts'
import { delayedRoutes } from './delayed.ts'
import { notFoundBody, registerErrorHandling } from './errors.ts'
import { flappingRoutes } from './flapping.ts'
import { listenerRoutes } from './listeners.ts'
import { loginRoutes } from './login.ts'
import { metricsRoutes } from './metrics.ts'
import { monitorRoutes } from './monitor.ts'
import { nodeRoutes, type NodePaths } from './nodes.ts'
import { publishRoutes } from './publish.ts'
import { registerRequestBodies } from './request-body.ts'
import { retainerRoutes } from './retainer.ts'
import { sessionRoutes } from './sessions.ts'
import { slowSubsRoutes } from './slow-subs.ts'
import { statsRoutes } from './stats.ts'
import { subscriptionRoutes } from './subscriptions.ts'
import { topicMetricsRoutes } from './topic-metrics.ts'
import { sysmonRoutes } from './sysmon.ts'
import { telemetryRoutes } from './telemetry.ts'
import { topicRewriteRoutes } from './topic-rewrite.ts'
import { topicRoutes } from './topics.ts'
import { userRoutes } from './users.ts'

export const API_PREFIX = '/api/v5'

export interface EmbeddedApi {
  broker: Broker
  features: Features
  monitor: MonitorSampler
  db: Database
  users: UserRepository
  tokens: TokenRepository
  auth: Auth
  paths: NodePaths
}

/** Builds the app around the embedded broker and store. `distDir` is served when it holds a build. */
export async function buildEmbeddedApp(deps: EmbeddedApi, distDir: string): Promise<FastifyInstance> {
  const app = createApp(distDir)
  const apiKeys = new ApiKeyRepository(deps.db)
  deps.auth.acceptApiKeys(apiKeys.verify)
  await app.register(
    async (api) => {
      api.addHook('onRequest', deps.auth.hook)
      registerRequestBodies(api)
      await api.register(loginRoutes, deps)
      await api.register(userRoutes, deps)
      await api.register(nodeRoutes, deps)
      await api.register(listenerRoutes, deps)
      await api.register(statsRoutes, deps)
      await api.register(metricsRoutes, deps)
      await api.register(monitorRoutes, deps)
      await api.register(clientRoutes, deps)
      await api.register(subscriptionRoutes, deps)
      await api.register(configRoutes, deps)
      await api.register(clientActionRoutes, deps)
      await api.register(clientsV2Routes, deps)
      await api.register(clientControlRoutes, deps)
      await api.register(sessionRoutes, deps)
      await api.register(authzCacheRoutes, deps)
      await api.register(telemetryRoutes, deps)
      await api.register(topicRoutes, deps)
      await api.register(publishRoutes, deps)
      await api.register(bannedRoutes, deps)
      await api.register(flappingRoutes, deps)
      await api.register(retainerRoutes, deps)
      await api.register(delayedRoutes, deps)
      await api.register(slowSubsRoutes, deps)
      await api.register(topicMetricsRoutes, deps)
      await api.register(alarmRoutes, deps)
      await api.register(sysmonRoutes, deps)
      await api.register(topicRewriteRoutes, deps)
      await api.register(autoSubscribeRoutes, deps)
      await api.register(apiKeyRoutes, { apiKeys })
    },
    { prefix: API_PREFIX },
  )
  await registerConsole(app, distDir)
  return app
}

/** Builds the app that forwards /api/v5 to a real EMQX at `emqxApiUrl` (with or without `/api/v5`). */
export async function buildProxyApp(emqxApiUrl: string, distDir: string): Promise<FastifyInstance> {
  const target = new URL(emqxApiUrl)
  const basePath = target.pathname.replace(/\/+$/, '').replace(/\/api\/v5$/, '')
  const app = createApp(distDir)
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

function createApp(distDir: string): FastifyInstance {
  const app = Fastify({ logger: false, routerOptions: { maxParamLength: MAX_PATH_PARAM }, http: { maxHeaderSize: MAX_HEADER_BYTES } })
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
