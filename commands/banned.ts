// Banned clients: ban by client id, username or source address (or, as EMQX 5.6+, a client id or
// username regular expression or an address range) until a time; lift one ban or all.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { banTypes } from '../src/api/banned.ts'
import { completeClientId, completePeerhost, completeUsername } from './clients.ts'
import type { Completer, Text } from './define.ts'
import type { Api } from '../src/api/index.ts'
import { defineRead, pagedTable, pageArgs, shortTime } from './format/read.ts'
import type { Ban } from '../src/api/banned.ts'
import { givenArgs } from './args.ts'

const RELATIVE = /^\+(\d+)(s|m|h|d|w)$/
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const

/** True for 'now', an RFC 3339 time or a relative '+30m' / '+1h' / '+7d'. */
export function isUntil(text: string): boolean {
  const trimmed = text.trim()
  return trimmed === 'now' || RELATIVE.test(trimmed) || (RFC3339.test(trimmed) && !Number.isNaN(Date.parse(trimmed)))
}

/** The RFC 3339 time (UTC, whole seconds) EMQX takes for `until`. */
export function parseUntil(text: string, now: number = Date.now()): string {
  const trimmed = text.trim()
  const relative = RELATIVE.exec(trimmed)
  const ms =
    trimmed === 'now'
      ? now
      : relative
        ? now + Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS]
        : Date.parse(trimmed)
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** Who to ban, by what `as` says: client ids, usernames or source addresses of connected clients. */
const completeWho: Completer = (api, query, signal, args) => {
  if (args?.as === 'username') return completeUsername(api, query, signal)
  if (args?.as === 'peerhost') return completePeerhost(api, query, signal)
  // A regular expression or an address range names no one client: nothing to suggest.
  if (args?.as && args.as !== 'clientid') return Promise.resolve([])
  return completeClientId(api, query, signal)
}

const who = () => v.pipe(v.string(), v.title('form.field.banWho'), v.minLength(1, 'err.bannedValue'))
const as = () => v.optional(v.pipe(v.picklist(banTypes, 'err.oneOf'), v.title('form.field.banAs')), 'clientid')

export const createBan = defineCommand({
  id: 'banned.create',
  title: 'cmd.banned.create',
  group: 'cmdGroup.banned',
  // A ban kicks the connected clients it covers.
  changes: ['banned', 'clients'],
  args: v.object({
    as: as(),
    who: who(),
    reason: v.optional(v.pipe(v.string(), v.title('form.field.reason'))),
    until: v.optional(
      v.pipe(v.string(), v.title('form.field.until'), v.description('form.hint.until'), v.check(isUntil, 'err.until'), v.metadata({ field: 'date' as const })),
    ),
  }),
  positional: ['as', 'who'],
  aliases: ['ban', 'block', 'blacklist', '黑名单', '封禁'],
  complete: { who: completeWho },
  suggestOnly: ['who'],
  run: (ctx, { as, who, reason, until }) =>
    ctx.api.banned.create({
      as,
      who,
      ...(reason ? { reason } : {}),
      ...(until ? { until: parseUntil(until) } : {}),
    }),
})

/**
 * The kind of the ban on `who` when it is not given: a client id ban first, else the one there is
 * (among the first 1000 bans, as the completer reads them); none: client id, and the API's 404.
 */
export async function banKindOf(api: Api, who: string): Promise<string> {
  const bans = (await api.banned.list({ page: 1, limit: 1000 })).data.filter((ban) => ban.who === who)
  return (bans.find((ban) => ban.as === 'clientid') ?? bans[0])?.as ?? 'clientid'
}

export const deleteBan = defineCommand({
  id: 'banned.delete',
  title: 'cmd.banned.delete',
  group: 'cmdGroup.banned',
  changes: ['banned'],
  // Left out, `as` is the kind of the ban on `who` (a client id ban first): a selection of rows of
  // several kinds can be deleted from the palette by their banned values alone.
  args: v.object({
    as: v.optional(v.pipe(v.picklist(banTypes, 'err.oneOf'), v.title('form.field.banAs'), v.description('form.hint.banAsAny'))),
    who: who(),
  }),
  positional: ['as', 'who'],
  danger: true,
  aliases: ['unban', 'unblock', '解封'],
  complete: {
    who: async (api, query, signal, args) => {
      const page = await api.banned.list({ page: 1, limit: 1000 }, signal)
      const as = args?.as || undefined
      return page.data
        .filter((ban) => !as || ban.as === as)
        .map((ban) => ban.who)
        .filter((w) => w.includes(query.trim()))
        .slice(0, 10)
    },
  },
  describe: ({ as, who }): Text => (as ? { key: 'cmd.banned.deleteDescribe', values: { as, who } } : { key: 'cmd.banned.deleteAnyDescribe', values: { who } }),
  run: async (ctx, { as, who }) => ctx.api.banned.delete(as ?? (await banKindOf(ctx.api, who)), who),
})

export const clearBans = defineCommand({
  id: 'banned.clear',
  title: 'cmd.banned.clear',
  group: 'cmdGroup.banned',
  changes: ['banned'],
  args: v.object({}),
  danger: true,
  aliases: ['unban all', '清空黑名单'],
  describe: () => ({ key: 'cmd.banned.clearDescribe' }),
  run: (ctx) => ctx.api.banned.clear(),
})

/** The ban list, one page. */
export const listBans = defineRead({
  id: 'banned.list',
  title: 'cmd.banned.list',
  group: 'cmdGroup.banned',
  aliases: ['bans', 'blacklist', '黑名单列表'],
  args: v.object(pageArgs()),
  run: (ctx, args) => ctx.api.banned.list(givenArgs(args)),
  table: pagedTable<Ban>([
    ['as', (b) => b.as],
    ['who', (b) => b.who],
    ['reason', (b) => b.reason],
    ['by', (b) => b.by],
    ['at', (b) => shortTime(b.at)],
    ['until', (b) => shortTime(b.until)],
  ]),
})

export const bannedCommands = [listBans, createBan, deleteBan, clearBans]
