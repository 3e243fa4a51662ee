// Settings updates merge into the current settings, as EMQX's config updates do.

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `patch` deep-merged over `current`; anything that is not an object replaces (or is left for validation). */
export function mergeObjects(current: unknown, patch: unknown): unknown {
  if (!isPlainObject(current) || !isPlainObject(patch)) return patch
  const merged: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(patch)) merged[key] = mergeObjects(current[key], value)
  return merged
}
