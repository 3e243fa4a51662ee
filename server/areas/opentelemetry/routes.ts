// GET/PUT /opentelemetry: the OpenTelemetry settings, and GET/POST/DELETE
// /opentelemetry/whitelist/{clientid|topic}: e2e tracing's whitelists, answered as EMQX 5.8 EE does.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { OTEL_WHITELIST_TYPES, OtelWhitelistSchema, otelErrors, tooManyRules } from '../../../contract/opentelemetry.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import { settingsRoute } from '../../http/settings-route.ts'
import type { AreaDeps } from '../area.ts'
import type { OtelFeature } from './feature.ts'
import { otelSettings } from './settings.ts'

const whitelistType = v.picklist(OTEL_WHITELIST_TYPES, `type must be one of ${OTEL_WHITELIST_TYPES.join(', ')}`)

export async function otelRoutes(app: FastifyInstance, deps: AreaDeps<OtelFeature>): Promise<void> {
  const { feature } = deps
  settingsRoute(app, '/opentelemetry', otelSettings(feature, deps.configs))
  const typeOf = (params: unknown) => parseInput(whitelistType, (params as { type?: unknown }).type, 'path')
  app.get('/opentelemetry/whitelist/:type', async (request) => feature.whitelist.get(typeOf(request.params)))
  app.post('/opentelemetry/whitelist/:type', async (request, reply) => {
    const type = typeOf(request.params)
    const entries = parseInput(OtelWhitelistSchema, request.body, 'body')
    const options = feature.config.traces.filter.e2e_tracing_options
    const max = type === 'clientid' ? options.clientid_match_rules_max : options.topic_match_rules_max
    if (entries.length > max) throw contractError(otelErrors.badRequest, tooManyRules(type))
    feature.whitelist.replace(type, entries)
    return reply.status(204).send()
  })
  app.delete('/opentelemetry/whitelist/:type', async (request, reply) => {
    feature.whitelist.replace(typeOf(request.params), [])
    return reply.status(204).send()
  })
}
