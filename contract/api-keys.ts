// API keys (EMQX `/api_key` and `/api_key/{name}`), written once for the server and the browser: the
// create and update bodies, the key as the server writes it and as the browser reads it, the name
// rule and the errors.
import * as v from 'valibot'
import { parseTimeFilter } from './time.ts'

/** SPEC section 5: letters, digits, '-' and '_', starting with a letter or a digit. */
export const API_KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/
export const API_KEY_NAME_MAX_BYTES = 256
/** EMQX refuses to create more than this many keys. */
export const MAX_API_KEYS = 100
export const API_KEY_EARLIER_THAN_NOW = 'The selected time cannot be earlier than the current time'

/** EMQX's message for a name it refuses, or undefined when the name is good. */
export function apiKeyNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '') return 'Name is required'
  if (new TextEncoder().encode(name).length > API_KEY_NAME_MAX_BYTES) return `Name Length must =< ${API_KEY_NAME_MAX_BYTES}`
  if (!API_KEY_NAME.test(name)) return `Name should be ${API_KEY_NAME.source}`
  return undefined
}

/** `infinity` (or nothing) for never, else RFC 3339 or epoch seconds (as EMQX's epoch_second) -> epoch seconds. */
const expiry = v.nullish(
  v.union(
    [
      v.literal('infinity'),
      v.pipe(v.number(), v.integer(), v.transform((n) => (n < 1e11 ? n : Math.floor(n / 1000)))),
      v.pipe(
        v.string(),
        v.transform((text) => parseTimeFilter(text)),
        v.number(),
        v.transform((ms) => Math.floor(ms / 1000)),
      ),
    ],
    'must be "infinity", an RFC 3339 time or epoch seconds',
  ),
)

/** `POST /api_key`; the name is checked apart (apiKeyNameProblem) to answer EMQX's messages. */
export const ApiKeyCreateBody = v.object({
  name: v.optional(v.unknown()),
  desc: v.optional(v.string(), ''),
  enable: v.optional(v.boolean(), true),
  expired_at: v.optional(expiry),
})

/** `PUT /api_key/{name}`: as EMQX, a body without `expired_at` makes the key never expire. */
export const ApiKeyUpdateBody = v.object({
  desc: v.optional(v.string()),
  enable: v.optional(v.boolean()),
  expired_at: v.optional(expiry),
})

/** One key as this server writes it: RFC 3339 times, `expired_at` is `infinity` for never. */
export const ApiKeyRecordSchema = v.object({
  name: v.string(),
  api_key: v.string(),
  expired_at: v.string(),
  created_at: v.string(),
  desc: v.string(),
  enable: v.boolean(),
  expired: v.boolean(),
})
export const ApiKeyRecordListSchema = v.array(ApiKeyRecordSchema)
/** The answer to a create as this server writes it: the one time the secret is shown. */
export const CreatedApiKeyRecordSchema = v.object({ ...ApiKeyRecordSchema.entries, api_secret: v.string() })

/** RFC 3339 in EMQX 5 responses, or 'infinity' (older builds may send nothing) for never. */
const readExpiry = v.nullish(v.union([v.string(), v.number()]))

/** One key as the browser reads it from any EMQX 5. */
export const apiKeySchema = v.object({
  name: v.string(),
  api_key: v.string(),
  expired_at: readExpiry,
  created_at: v.nullish(v.union([v.string(), v.number()])),
  desc: v.nullish(v.string()),
  enable: v.boolean(),
  expired: v.nullish(v.boolean()),
  /** Enterprise RBAC only. */
  role: v.nullish(v.string()),
})
export type ApiKey = v.InferOutput<typeof apiKeySchema>
export const apiKeyListSchema = v.array(apiKeySchema)

/** The answer to a create as the browser reads it: the one time EMQX shows the secret. */
export const createdApiKeySchema = v.object({ ...apiKeySchema.entries, api_secret: v.string() })
export type CreatedApiKey = v.InferOutput<typeof createdApiKeySchema>

/** The errors of this area: status and EMQX code. */
export const apiKeysErrors = {
  /**
   * 400: a bad body, a name taken (`name_already_existed`) or malformed, an expiry in the past, or
   * the 100-key limit.
   */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 404: no key of that name (`Name NOT FOUND`). */
  notFound: { status: 404, code: 'NOT_FOUND' },
} as const
