// /banned: list (paged, filtered), create, clear; /banned/{as}/{who}: delete. Body, query, record
// and errors are the contract's; the list's regex filters run here, on the linear-time engine.
import type { FastifyInstance } from 'fastify'
import { BAN_TYPES, BanBody, bannedErrors, BannedListQuery, type BanRecord, type BanType } from '../../../contract/banned.ts'
import type { Page } from '../../../contract/paging.ts'
import { compileLinearRegex, type LinearRegex } from '../../broker/linear-regex.ts'
import { invalidWho, type BannedFeature } from './feature.ts'
import type { Ban } from './store.ts'
import { badRequest, contractError, parseInput } from '../../http/errors.ts'
import { pageOf } from '../../http/paging.ts'
import { rfc3339 } from '../../http/time.ts'

export function banRecord(ban: Ban): BanRecord {
  return {
    as: ban.as,
    who: ban.who,
    by: ban.by,
    reason: ban.reason,
    at: rfc3339(ban.at),
    until: ban.until === undefined ? 'infinity' : rfc3339(ban.until),
  }
}

function safeRegex(source: string): LinearRegex {
  try {
    return compileLinearRegex(source)
  } catch {
    throw badRequest(`The filter is not a validation regex expression: ${source}`)
  }
}

export async function bannedRoutes(app: FastifyInstance, deps: { feature: BannedFeature }): Promise<void> {
  const banned = deps.feature

  app.get('/banned', async (request): Promise<Page<BanRecord>> => {
    const q = parseInput(BannedListQuery, request.query, 'query')
    const exact = (['clientid', 'username', 'peerhost'] as const).filter((key) => q[key] !== undefined)
    const fuzzy = (['like_clientid', 'like_username', 'like_peerhost', 'like_peerhost_net'] as const).filter((key) => q[key] !== undefined)
    // EMQX allows one filter per query: two of them always select nothing.
    if (exact.length + fuzzy.length > 1) throw badRequest('too_many_filters')
    const now = Date.now()
    let bans = banned.repository.list().filter((ban) => ban.until === undefined || ban.until > now)
    if (exact.length === 1) {
      const key = exact[0]
      bans = bans.filter((ban) => ban.as === key && ban.who === q[key])
    } else if (fuzzy.length === 1) {
      const key = fuzzy[0]
      const pattern = safeRegex(q[key]!)
      const types: Record<typeof key, BanType[]> = {
        like_clientid: ['clientid', 'clientid_re'],
        like_username: ['username', 'username_re'],
        like_peerhost: ['peerhost'],
        like_peerhost_net: ['peerhost_net'],
      }
      bans = bans.filter((ban) => types[key].includes(ban.as) && pattern.test(ban.who))
    }
    const page = pageOf(bans, q.page, q.limit)
    return { data: page.data.map(banRecord), meta: page.meta }
  })

  app.post('/banned', async (request): Promise<BanRecord> => {
    const body = parseInput(BanBody, request.body, 'body')
    const problem = invalidWho(body.as, body.who)
    if (problem) throw badRequest(problem)
    const at = body.at ?? Date.now()
    // Without `until` a ban never ends (EMQX 5's schema default is `infinity`).
    const until = body.until === 'infinity' || body.until == null ? undefined : body.until
    if (until !== undefined && until <= Date.now()) {
      throw badRequest(`Cannot create expired banned, ${rfc3339(at)} to ${rfc3339(until)}`)
    }
    const result = banned.create({ as: body.as, who: body.who, by: body.by, reason: body.reason, at, until })
    if ('existing' in result) throw contractError(bannedErrors.alreadyExists, JSON.stringify(banRecord(result.existing)))
    return banRecord(result.created)
  })

  app.delete('/banned', async (_request, reply) => {
    banned.repository.clear()
    return reply.status(204).send()
  })

  app.delete<{ Params: { as: string; who: string } }>('/banned/:as/:who', async (request, reply) => {
    const { as, who } = request.params
    if (!(BAN_TYPES as readonly string[]).includes(as)) throw badRequest(`as: must be one of ${BAN_TYPES.join(', ')}`)
    if (!banned.repository.delete(as as BanType, who)) throw contractError(bannedErrors.notFound, `${as}: ${who} not found`)
    return reply.status(204).send()
  })
}

