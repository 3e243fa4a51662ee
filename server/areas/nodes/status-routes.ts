// GET /status, as emqx_mgmt_api_status answers a load balancer's or an orchestrator's health check:
// without a login, `Node <node> is started\nemqx is running` as text, or `?format=json`. The embedded
// server answers only while its broker runs, so it is always started and running here.
import type { FastifyInstance } from 'fastify'
import type { AreaDeps } from '../area.ts'
import { EMQX_VERSION } from '../../http/version.ts'

export async function statusRoutes(app: FastifyInstance, { broker }: AreaDeps<undefined>): Promise<void> {
  app.get('/status', { config: { public: true } }, async (request, reply) => {
    const format = (request.query as Record<string, unknown>).format
    reply.header('retry-after', '15')
    if (format === 'json') {
      return reply
        .type('application/json')
        .send({ node_name: broker.node, rel_vsn: `v${EMQX_VERSION}`, broker_status: 'started', app_status: 'running' })
    }
    return reply.type('text/plain').send(`Node ${broker.node} is started\nemqx is running`)
  })
}
