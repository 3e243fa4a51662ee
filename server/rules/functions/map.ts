// Map functions (emqx_rule_funcs map section, emqx_rule_maps nested get/put). Paths are "a.b.c";
// a JSON text met on the way is decoded, as emqx_rule_maps does.
import { toMap } from './conversion.ts'
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { isMap, text, type RuleMap } from './values.ts'

const path = (fn: string, key: unknown): string[] => text(fn, key).split('.')

function asMap(data: unknown): RuleMap | undefined {
  if (isMap(data)) return data
  if (typeof data === 'string' || data instanceof Uint8Array) {
    try {
      const decoded: unknown = JSON.parse(text('map_get', data))
      return isMap(decoded) ? decoded : undefined
    } catch {
      return undefined
    }
  }
  return undefined
}

export function nestedGet(keys: readonly string[], data: unknown, fallback: unknown = undefined): unknown {
  let current = data
  for (const key of keys) {
    const map = asMap(current)
    const value = map && Object.hasOwn(map, key) ? map[key] : undefined
    if (value === undefined) return fallback
    current = value
  }
  return current
}

/** A copy of data with the value at the path set; missing or non-map levels become maps. */
export function nestedPut(keys: readonly string[], value: unknown, data: unknown): unknown {
  if (keys.length === 0) return value
  const [key, ...rest] = keys as [string, ...string[]]
  const map = asMap(data) ?? {}
  return { ...map, [key]: nestedPut(rest, value, map[key]) }
}

export const mapFunctions: RuleFunctionGroup = {
  map_new: ruleFn([0], () => ({})),
  map_get: ruleFn([2, 3], (key, map, fallback) => nestedGet(path('map_get', key), map, fallback)),
  map_put: ruleFn([3], (key, value, map) => nestedPut(path('map_put', key), value, map)),
  map_keys: ruleFn([1], (map) => Object.keys(toMap(map))),
  map_values: ruleFn([1], (map) => Object.values(toMap(map))),
  map_to_entries: ruleFn([1], (map) => Object.entries(toMap(map)).map(([key, value]) => ({ key, value }))),
  map_size: ruleFn([1], (map) => Object.keys(toMap(map)).length),
  // mget/mput take the key as one key, not a path.
  mget: ruleFn([2, 3], (key, map, fallback) => {
    const m = toMap(map)
    const k = text('mget', key)
    return Object.hasOwn(m, k) ? m[k] : fallback
  }),
  mput: ruleFn([3], (key, value, map) => ({ ...toMap(map), [text('mput', key)]: value })),
}
