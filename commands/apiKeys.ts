// API keys: create one for a script or the CLI (its secret is shown once, in the result), change its
// description and expiry, turn it off or on, delete it. Only a dashboard login may run these:
// EMQX refuses API keys on /api_key.
import * as v from 'valibot'
import { defineCommand, type Completer } from './define.ts'
import { parseDateInput, resolveDateInput, type FieldKind } from './args.ts'
import type { CreatedApiKey } from '../src/api/apiKeys.ts'

/** SPEC section 5: letters, digits, '-' and '_', starting with a letter or a digit; EMQX allows 256. */
export const API_KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/
export const API_KEY_NAME_MAX = 256

/** The word for "never expires"; EMQX's `infinity` is read the same. */
export const NEVER = 'never'

/** True for 'never' / 'infinity', or a time ('now', '+1h', RFC 3339) the parser reads. */
export function isExpiry(text: string): boolean {
  const word = text.trim().toLowerCase()
  return word === NEVER || word === 'infinity' || parseDateInput(text) !== undefined
}

/** False for a time before now ('The selected time cannot be earlier than the current time'). */
export function notInPast(text: string, now: number = Date.now()): boolean {
  const word = text.trim().toLowerCase()
  if (word === NEVER || word === 'infinity') return true
  const ms = parseDateInput(text, now)
  return ms === undefined || ms >= now
}

/** What EMQX takes for `expired_at`: 'infinity' or an RFC 3339 time. */
export function expiryValue(text: string, now: number = Date.now()): string {
  const word = text.trim().toLowerCase()
  if (word === NEVER || word === 'infinity') return 'infinity'
  return resolveDateInput(text, now) ?? text
}

const name = () =>
  v.pipe(
    v.string('err.nameRequired'),
    v.title('form.field.apiKeyName'),
    v.minLength(1, 'err.nameRequired'),
    v.maxLength(API_KEY_NAME_MAX),
    v.regex(API_KEY_NAME, 'err.apiKeyName'),
  )

const expiry = () =>
  v.pipe(
    v.string(),
    v.title('form.field.expiredAt'),
    v.description('form.hint.apiKeyExpiry'),
    v.check(isExpiry, 'err.apiKeyExpiry'),
    v.check((text: string) => notInPast(text), 'err.expiryPast'),
    v.metadata({ field: 'date' as FieldKind }),
  )

/** Arguments whose only required one is `name`: a missing key reads 'Name is required' too, as an empty one. */
function nameArgs<E extends v.ObjectEntries>(entries: E) {
  return v.object({ name: name(), ...entries }, 'err.nameRequired')
}

const desc = () => v.optional(v.pipe(v.string(), v.title('form.field.desc')))

export const completeApiKeyName: Completer = (api, query, signal) => api.apiKeys.suggest(query, signal)

export const createApiKey = defineCommand({
  id: 'apiKey.create',
  title: 'cmd.apiKey.create',
  group: 'cmdGroup.apiKeys',
  changes: ['apiKeys'],
  args: nameArgs({
    desc: desc(),
    expired_at: v.optional(expiry(), NEVER),
    enable: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.enable')), true),
  }),
  positional: ['name'],
  aliases: ['api key', 'new api key', 'token', 'credentials', 'API 密钥', '密钥'],
  // The result holds `api_secret`: EMQX answers it this once and never again, so it is shown now
  // (notification until dismissed, terminal line, the CLI's output) and kept nowhere.
  secretResult: true,
  resultText: (key: CreatedApiKey) => ({ key: 'cmd.apiKey.created', values: { name: key.name, key: key.api_key, secret: key.api_secret } }),
  run: (ctx, { name, desc, expired_at, enable }) =>
    ctx.api.apiKeys.create({ name, enable, expired_at: expiryValue(expired_at), ...(desc !== undefined ? { desc } : {}) }),
})

export const updateApiKey = defineCommand({
  id: 'apiKey.update',
  title: 'cmd.apiKey.update',
  group: 'cmdGroup.apiKeys',
  changes: ['apiKeys'],
  args: nameArgs({
    desc: desc(),
    expired_at: v.optional(expiry()),
    enable: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.enable'))),
  }),
  positional: ['name'],
  aliases: ['api key', 'edit api key', 'expire', 'API 密钥'],
  complete: { name: completeApiKeyName },
  // Turning a key off stops every script that uses it: ask, as for apiKey.disable.
  danger: true,
  describe: ({ name, enable }) => ({ key: enable === false ? 'cmd.apiKey.disableDescribe' : 'cmd.apiKey.updateDescribe', values: { name } }),
  run: (ctx, { name, desc, expired_at, enable }) =>
    ctx.api.apiKeys.update(name, {
      ...(desc !== undefined ? { desc } : {}),
      ...(enable !== undefined ? { enable } : {}),
      ...(expired_at !== undefined ? { expired_at: expiryValue(expired_at) } : {}),
    }),
})

export const enableApiKey = defineCommand({
  id: 'apiKey.enable',
  title: 'cmd.apiKey.enable',
  group: 'cmdGroup.apiKeys',
  changes: ['apiKeys'],
  args: nameArgs({}),
  positional: ['name'],
  aliases: ['api key', 'API 密钥'],
  complete: { name: completeApiKeyName },
  run: (ctx, { name }) => ctx.api.apiKeys.update(name, { enable: true }),
})

export const disableApiKey = defineCommand({
  id: 'apiKey.disable',
  title: 'cmd.apiKey.disable',
  group: 'cmdGroup.apiKeys',
  changes: ['apiKeys'],
  args: nameArgs({}),
  positional: ['name'],
  aliases: ['api key', 'revoke', 'API 密钥'],
  complete: { name: completeApiKeyName },
  danger: true,
  describe: ({ name }) => ({ key: 'cmd.apiKey.disableDescribe', values: { name } }),
  run: (ctx, { name }) => ctx.api.apiKeys.update(name, { enable: false }),
})

export const deleteApiKey = defineCommand({
  id: 'apiKey.delete',
  title: 'cmd.apiKey.delete',
  group: 'cmdGroup.apiKeys',
  changes: ['apiKeys'],
  args: nameArgs({}),
  positional: ['name'],
  aliases: ['api key', 'remove api key', 'revoke', 'API 密钥'],
  complete: { name: completeApiKeyName },
  danger: true,
  describe: ({ name }) => ({ key: 'cmd.apiKey.deleteDescribe', values: { name } }),
  run: (ctx, { name }) => ctx.api.apiKeys.delete(name),
})

export const apiKeyCommands = [createApiKey, updateApiKey, enableApiKey, disableApiKey, deleteApiKey]
