// The settings cycle every settings path shares (EMQX's config update): GET answers the settings in
// force; PUT merges the body into them, validates the whole result (a 400 changes nothing), saves it
// and applies it, then answers what is now in force. The stored value is read back at start.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { badRequest, parseInput } from './errors.ts'

/** Where settings survive a restart: a key/value store (store/settings.ts, store/feature-config.ts). */
export interface SettingsStore {
  get(key: string): unknown
  set(key: string, value: unknown): void
}

/** One settings document: how to read, check, keep and apply it. */
export interface Settings<S extends v.GenericSchema = v.GenericSchema> {
  /** Checks a whole candidate value (after the merge); its first problem is the 400's message. */
  schema: S
  /** The settings in force: what GET answers and what a PUT merges into. */
  current(): v.InferInput<S>
  store: SettingsStore
  /** The key the value is kept under in `store`. */
  key: string
  /** Puts a checked value in force (it is saved first). */
  apply(value: v.InferOutput<S>): void
  /** How a body combines with the current value; EMQX's rule (`mergeSettings`) unless said. */
  merge?: (current: unknown, body: Record<string, unknown>) => unknown
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `patch` deep-merged over `current`: objects merge key by key; lists and everything else replace. */
export function mergeSettings(current: unknown, patch: unknown): unknown {
  if (!isPlainObject(current) || !isPlainObject(patch)) return patch
  const merged: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(patch)) merged[key] = mergeSettings(current[key], value)
  return merged
}

/** Only the top-level keys replace (EMQX's `maps:merge` of a root): for settings holding maps of data. */
export function replaceKeys(current: unknown, patch: Record<string, unknown>): unknown {
  return isPlainObject(current) ? { ...current, ...patch } : patch
}

/** The refusal of keys the embedded broker does not have, naming them and the ones it has; undefined when none. */
export function unsupportedKeys(value: Record<string, unknown>, known: readonly string[]): string | undefined {
  const unknown = Object.keys(value).filter((key) => !known.includes(key))
  return unknown.length > 0 ? `not supported by the embedded broker: ${unknown.join(', ')} (supported: ${known.join(', ')})` : undefined
}

/** An object schema that refuses the keys it does not list (saying which) instead of dropping them. */
export function supportedKeysOnly<S extends v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>>(schema: S) {
  const known = Object.keys(schema.entries)
  const problem = (input: unknown) => (isPlainObject(input) ? unsupportedKeys(input, known) : undefined)
  return v.pipe(
    v.unknown(),
    v.check((input) => problem(input) === undefined, (issue) => problem(issue.input) ?? ''),
    schema,
  )
}

/** A body that must be a JSON object, or the 400 saying so. */
export function objectBody(body: unknown, what: string): Record<string, unknown> {
  if (!isPlainObject(body)) throw badRequest(`${what} must be a JSON object`)
  return body
}

/**
 * Validates a change now and returns what makes it happen, so a request that changes several
 * documents checks every one before it changes any. `what` names the value in error messages.
 */
export function prepareChange<S extends v.GenericSchema>(settings: Settings<S>, body: unknown, what: string): () => void {
  const patch = objectBody(body, what)
  const merged = (settings.merge ?? mergeSettings)(settings.current(), patch)
  const next = parseInput(settings.schema, merged, what)
  return () => {
    settings.store.set(settings.key, next)
    settings.apply(next)
  }
}

/** GET and PUT `path` for one settings document; validation errors name the value `what`. */
export function settingsRoute<S extends v.GenericSchema>(app: FastifyInstance, path: string, settings: Settings<S>, what = 'body'): void {
  app.get(path, async () => settings.current())
  app.put(path, async (request) => {
    prepareChange(settings, request.body, what)()
    return settings.current()
  })
}

/** Applies the stored value at start, when it still passes today's schema (else the defaults stay). */
export function restoreSettings<S extends v.GenericSchema>(settings: Settings<S>): void {
  const stored = settings.store.get(settings.key)
  if (stored === undefined) return
  const result = v.safeParse(settings.schema, stored)
  if (result.success) settings.apply(result.output)
}
