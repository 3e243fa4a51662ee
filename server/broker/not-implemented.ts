// Settings EMQX has that the embedded broker does not implement: shown at EMQX's default and
// refused when changed, so a client that sends back what it read (EMQX's dashboard does) still
// succeeds and nobody is told a setting took effect when it did not.
import * as v from 'valibot'

/** A schema that passes only `value` (JSON-equal), with `value` as its default. */
export function keptAt<T>(value: T) {
  const text = JSON.stringify(value)
  return v.optional(
    v.custom<T>((input) => JSON.stringify(input) === text, `not implemented by the embedded broker, which keeps ${text}`),
    () => structuredClone(value),
  )
}

/** An object of such settings, each kept at its value. */
export function keptObject<T extends Record<string, unknown>>(values: T) {
  const entries = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, keptAt(value)])) as { [K in keyof T]: ReturnType<typeof keptAt<T[K]>> }
  return v.optional(v.strictObject(entries), () => structuredClone(values))
}
