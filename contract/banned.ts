// Banned clients (EMQX `/banned`), written once for the server and the browser: the ban record, the
// create body, the list query, and the errors. A ban is refused at CONNECT (0x8A, v3 code 5).
import * as v from 'valibot'
import { paged, pagingEntries } from './paging.ts'
import { parseTimeFilter } from './time.ts'

/** What a ban matches, as this server (EMQX 5.6+) knows it. */
export const BAN_TYPES = ['clientid', 'username', 'peerhost', 'clientid_re', 'username_re', 'peerhost_net'] as const
export type BanType = (typeof BAN_TYPES)[number]

/** The kinds every EMQX 5 knows; 5.6+ adds `clientid_re`, `username_re` and `peerhost_net`. */
export const banKinds = ['clientid', 'username', 'peerhost'] as const
export type BanKind = (typeof banKinds)[number]

const timeValue = v.union([
  v.pipe(v.number(), v.integer(), v.transform((n) => (n < 1e11 ? n * 1000 : n))),
  v.pipe(
    v.string(),
    v.transform(parseTimeFilter),
    v.number('must be an RFC 3339 time or epoch seconds'),
  ),
])

/**
 * `POST /banned`. EMQX reads a JSON null as an absent field (hocon drops nulls): `until: null` is a
 * ban that never ends. `at` and `until` are RFC 3339 or epoch seconds (milliseconds from 10^11).
 */
export const BanBody = v.object({
  as: v.picklist(BAN_TYPES, `must be one of ${BAN_TYPES.join(', ')}`),
  who: v.pipe(v.string('Please enter Banned value'), v.trim(), v.minLength(1, 'Please enter Banned value')),
  by: v.nullish(v.string(), 'mgmt_api'),
  reason: v.nullish(v.string(), ''),
  at: v.nullish(timeValue),
  until: v.nullish(v.union([v.literal('infinity'), timeValue])),
})

/** `GET /banned`: one filter at most; the `like_` ones are regular expressions (linear-time). */
export const BannedListQuery = v.object({
  ...pagingEntries(100),
  clientid: v.optional(v.string()),
  username: v.optional(v.string()),
  peerhost: v.optional(v.string()),
  like_clientid: v.optional(v.string()),
  like_username: v.optional(v.string()),
  like_peerhost: v.optional(v.string()),
  like_peerhost_net: v.optional(v.string()),
})

/** One ban as this server writes it: RFC 3339 times, `until` is `infinity` for a ban that never ends. */
export const BanRecordSchema = v.object({
  as: v.picklist(BAN_TYPES),
  who: v.string(),
  by: v.string(),
  reason: v.string(),
  at: v.string(),
  until: v.string(),
})
export type BanRecord = v.InferOutput<typeof BanRecordSchema>

export const BanRecordPageSchema = paged(BanRecordSchema)

/** RFC 3339 in EMQX 5 responses; older versions send epoch seconds; 'infinity' for no end. */
const time = v.nullish(v.union([v.string(), v.number()]))

/** One ban as the browser reads it, from this server or any EMQX 5. */
export const BanSchema = v.object({
  as: v.string(),
  who: v.string(),
  by: v.nullish(v.string()),
  reason: v.nullish(v.string()),
  at: time,
  until: time,
})
export type Ban = v.InferOutput<typeof BanSchema>

export const BanPageSchema = paged(BanSchema)
export type BanPage = v.InferOutput<typeof BanPageSchema>

/** The answer to `POST /banned`: 5.0–5.5 answer the created ban; later versions wrap it as `{data: [ban]}`. */
export const BanCreatedSchema = v.union([BanSchema, v.object({ data: v.array(BanSchema) })])

/** The errors of this area: status and EMQX code (the messages are EMQX's, set where they are raised). */
export const bannedErrors = {
  /** 400: a bad body or query, two filters at once, a filter that is no (linear-time) regex, an expired ban. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 400: the same `as`/`who` is banned already; the message is the existing ban as JSON. */
  alreadyExists: { status: 400, code: 'ALREADY_EXISTS' },
  /** 404: no such ban. */
  notFound: { status: 404, code: 'NOT_FOUND' },
} as const
