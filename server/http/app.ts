// The HTTP server: the console's static files with SPA fallback, and /api/v5 either served by the
// embedded broker and store or proxied to a real EMQX.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyHttpProxy from '@fastify/http-proxy'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { Broker } from '../broker/broker.ts'
import type { Features } from '../broker/features/index.ts'
import type { MonitorSampler } from '../areas/monitor/feature.ts'
import { ApiKeyRepository } from '../areas/api-keys/store.ts'
import type { Database } from '../store/db.ts'
import type { TokenRepository } from '../areas/login/token-store.ts'
import type { UserRepository } from '../areas/login/user-store.ts'
import { apiKeyRoutes } from '../areas/api-keys/routes.ts'
import type { Auth } from '../areas/login/guard.ts'
import { alarmRoutes } from '../areas/alarms/routes.ts'
import { autoSubscribeRoutes } from '../areas/auto-subscribe/routes.ts'
import { bannedRoutes } from '../areas/banned/routes.ts'
import { clientActionRoutes } from '../areas/clients/action-routes.ts'
import { clientRoutes } from '../areas/clients/routes.ts'
import { configRoutes } from '../areas/mqtt-configs/routes.ts'
import { delayedRoutes } from '../areas/delayed/routes.ts'
import { notFoundBody, registerErrorHandling } from './errors.ts'
import { flappingRoutes } from '../areas/flapping/routes.ts'
import { listenerRoutes } from '../areas/listeners/routes.ts'
import { loginRoutes } from '../areas/login/routes.ts'
import { metricsRoutes } from '../areas/nodes/metrics-routes.ts'
import { monitorRoutes } from '../areas/monitor/routes.ts'
import { nodeRoutes, type NodePaths } from '../areas/nodes/routes.ts'
import { publishRoutes } from '../areas/publish/routes.ts'
import { retainerRoutes } from '../areas/retainer/routes.ts'
import { slowSubsRoutes } from '../areas/slow-subs/routes.ts'
import { statsRoutes } from '../areas/nodes/stats-routes.ts'
import { subscriptionRoutes } from '../areas/subscriptions/routes.ts'
import { topicMetricsRoutes } from '../areas/topic-metrics/routes.ts'
import { sysmonRoutes } from '../areas/alarms/sysmon-routes.ts'
import { topicRewriteRoutes } from '../areas/topic-rewrite/routes.ts'
import { topicRoutes } from '../areas/topics/routes.ts'
import { userRoutes } from '../areas/login/user-routes.ts'

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

function createApp(distDir: string): FastifyInstance {
  const app = Fastify({ logger: false })
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
