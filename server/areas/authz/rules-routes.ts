// /authorization/sources/built_in_database/rules: per client id, per username and for all, paged,
// at most the source's `max_rules` per entry; every path is 404 while no such source exists.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import {
  AllRulesBody,
  authzErrors,
  ClientRulesBody,
  ClientRulesListBody,
  ClientRulesQuery,
  UserRulesBody,
  UserRulesListBody,
  UserRulesQuery,
  type AuthzRule,
  type ClientRules,
  type UserRules,
} from '../../../contract/authz.ts'
import type { Page } from '../../../contract/paging.ts'
import { badRequest, contractError, parseInput } from '../../http/errors.ts'
import { pageOf } from '../../http/paging.ts'
import { sourceNotFound, type AuthzFeature } from './feature.ts'
import type { RulesKind } from './store.ts'

const BASE = '/authorization/sources/built_in_database/rules'

/** The two kinds of named entries, with EMQX's words for them. */
const KINDS = {
  clientid: { path: 'clients', one: 'Client', notFound: 'ClientID Not Found', body: ClientRulesBody, list: ClientRulesListBody, query: ClientRulesQuery, like: 'like_clientid' },
  username: { path: 'users', one: 'User', notFound: 'Username Not Found', body: UserRulesBody, list: UserRulesListBody, query: UserRulesQuery, like: 'like_username' },
} as const

export async function authzRulesRoutes(app: FastifyInstance, deps: { feature: AuthzFeature }): Promise<void> {
  const authz = deps.feature
  const rules = authz.rules

  /** The source's rule limit; 404 when there is no built_in_database source. */
  const maxRules = (): number => {
    const source = authz.find('built_in_database')
    if (source?.type !== 'built_in_database') throw sourceNotFound('built_in_database')
    return source.max_rules
  }
  const normalized = (input: v.InferOutput<typeof AllRulesBody>['rules']): AuthzRule[] =>
    input.map(({ topic, permission, action, qos, retain }) => ({ topic, permission, action, qos, retain }))

  for (const kind of ['clientid', 'username'] as const) {
    const { path, one, notFound, body, list, query, like } = KINDS[kind]
    const record = (who: string, entryRules: AuthzRule[]) => ({ [kind]: who, rules: entryRules }) as ClientRules & UserRules

    app.get(`${BASE}/${path}`, async (request): Promise<Page<ClientRules | UserRules>> => {
      maxRules()
      const q = parseInput(query, request.query, 'query') as { page: number; limit: number } & Record<string, string | undefined>
      const part = q[like]
      const entries = rules.repository.entries(kind).filter((entry) => part === undefined || entry.who.includes(part))
      const page = pageOf(entries, q.page, q.limit)
      return { data: page.data.map((entry) => record(entry.who, entry.rules)), meta: page.meta }
    })

    app.post(`${BASE}/${path}`, async (request, reply) => {
      const limit = maxRules()
      const entries = (parseInput(list, request.body, 'body') as Array<Record<string, unknown> & { rules: v.InferOutput<typeof AllRulesBody>['rules'] }>).map(
        (entry) => ({ who: entry[kind] as string, rules: normalized(entry.rules) }),
      )
      for (const entry of entries) {
        if (entry.rules.length > limit) throw badRequest(`The rules length of ${one} '${entry.who}' exceeds the maximum limit.`)
        if (rules.repository.find(kind, entry.who)) throw contractError(authzErrors.alreadyExists, `${one} '${entry.who}' already exist`)
      }
      for (const entry of entries) rules.put(kind, entry.who, entry.rules)
      return reply.status(204).send()
    })

    app.get<{ Params: { who: string } }>(`${BASE}/${path}/:who`, async (request) => {
      maxRules()
      const found = rules.repository.find(kind, request.params.who)
      if (!found) throw contractError(authzErrors.notFound, 'Not Found')
      return record(request.params.who, found)
    })

    app.put<{ Params: { who: string } }>(`${BASE}/${path}/:who`, async (request, reply) => {
      const limit = maxRules()
      const entry = parseInput(body, request.body, 'body') as Record<string, unknown> & { rules: v.InferOutput<typeof AllRulesBody>['rules'] }
      if (entry[kind] !== request.params.who) throw badRequest(`Bad ${kind}`)
      if (entry.rules.length > limit) throw badRequest('The rules length exceeds the maximum limit.')
      rules.put(kind, request.params.who, normalized(entry.rules))
      return reply.status(204).send()
    })

    app.delete<{ Params: { who: string } }>(`${BASE}/${path}/:who`, async (request, reply) => {
      maxRules()
      if (!rules.delete(kind, request.params.who)) throw contractError(authzErrors.notFound, notFound)
      return reply.status(204).send()
    })
  }

  const ALL: RulesKind = 'all'
  app.get(`${BASE}/all`, async () => {
    maxRules()
    return { rules: rules.repository.find(ALL, '') ?? [] }
  })

  app.post(`${BASE}/all`, async (request, reply) => {
    const limit = maxRules()
    const { rules: input } = parseInput(AllRulesBody, request.body, 'body')
    if (input.length > limit) throw badRequest('The rules length exceeds the maximum limit.')
    rules.put(ALL, '', normalized(input))
    return reply.status(204).send()
  })

  app.delete(`${BASE}/all`, async (_request, reply) => {
    maxRules()
    rules.put(ALL, '', [])
    return reply.status(204).send()
  })

  app.delete(BASE, async (_request, reply) => {
    const source = authz.find('built_in_database')
    if (!source) throw contractError(authzErrors.purgeWithoutSource, "'built_in_database' type source is not found.")
    if (source.enable) throw badRequest("'built_in_database' type source must be disabled before purge.")
    rules.purge()
    return reply.status(204).send()
  })
}
