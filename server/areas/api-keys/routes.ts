// /api_key (list, create) and /api_key/{name} (read, update, delete), as EMQX 5's
// emqx_mgmt_api_api_keys. Only a dashboard login may call them: auth.ts refuses API keys here.
import type { FastifyInstance } from 'fastify'
import { isExpired, nowSeconds, type ApiKey, type ApiKeyRepository } from './store.ts'
import { ApiError, badRequest, parseInput } from '../../http/errors.ts'
import { rfc3339 } from '../../http/time.ts'
import { API_KEY_EARLIER_THAN_NOW, apiKeyNameProblem, ApiKeyCreateBody, ApiKeyUpdateBody } from '../../../contract/api-keys.ts'

function checkName(name: unknown): string {
  const problem = apiKeyNameProblem(name)
  if (problem) throw badRequest(problem)
  return name as string
}

function seconds(value: number | 'infinity' | null | undefined): number | undefined {
  return typeof value === 'number' ? value : undefined
}

export function apiKeyRecord(key: ApiKey) {
  return {
    name: key.name,
    api_key: key.apiKey,
    expired_at: key.expiredAt === undefined ? 'infinity' : rfc3339(key.expiredAt * 1000),
    created_at: rfc3339(key.createdAt * 1000),
    desc: key.desc,
    enable: key.enable,
    expired: isExpired(key.expiredAt),
  }
}

const notFound = () => new ApiError(404, 'NOT_FOUND', 'Name NOT FOUND')

export async function apiKeyRoutes(app: FastifyInstance, deps: { apiKeys: ApiKeyRepository }): Promise<void> {
  const { apiKeys } = deps

  app.get('/api_key', async () => apiKeys.list().map(apiKeyRecord))

  app.post('/api_key', async (request) => {
    const body = parseInput(ApiKeyCreateBody, request.body ?? {}, 'body')
    const name = checkName(body.name)
    const expiredAt = seconds(body.expired_at)
    if (expiredAt !== undefined && expiredAt < nowSeconds()) throw badRequest(API_KEY_EARLIER_THAN_NOW)
    const created = await apiKeys.create({ name, desc: body.desc, enable: body.enable, expiredAt })
    // EMQX answers with the Erlang term of the reason.
    if (!created.ok) throw badRequest(created.reason === 'exists' ? 'name_already_existed' : 'Maximum number of ApiKeys reached.')
    return { ...apiKeyRecord(created.key), api_secret: created.secret }
  })

  app.get<{ Params: { name: string } }>('/api_key/:name', async (request) => {
    const key = apiKeys.find(checkName(request.params.name))
    if (!key) throw notFound()
    return apiKeyRecord(key)
  })

  app.put<{ Params: { name: string } }>('/api_key/:name', async (request) => {
    const name = checkName(request.params.name)
    const body = parseInput(ApiKeyUpdateBody, request.body ?? {}, 'body')
    const current = apiKeys.find(name)
    if (!current) throw notFound()
    // As EMQX: an update without `expired_at` makes the key never expire. A past time is refused
    // unless it is the key's own (so an expired key can still be disabled or described).
    const expiredAt = seconds(body.expired_at)
    if (expiredAt !== undefined && expiredAt < nowSeconds() && expiredAt !== current.expiredAt) throw badRequest(API_KEY_EARLIER_THAN_NOW)
    const updated = apiKeys.update(name, { enable: body.enable, desc: body.desc, expiredAt })
    if (!updated) throw notFound()
    return apiKeyRecord(updated)
  })

  app.delete<{ Params: { name: string } }>('/api_key/:name', async (request, reply) => {
    if (!apiKeys.delete(checkName(request.params.name))) throw notFound()
    return reply.status(204).send()
  })
}
