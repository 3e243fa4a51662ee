// 5.8's diff_confs over one `connectors`, `actions` or `sources` root (emqx_utils_maps:diff_maps on
// `{type, name}` keys): what a new root removes, adds and changes against the saved rows. An entry is
// changed when its config differs; the times an action or source carries (`created_at`,
// `last_modified_at`) are left out of the comparison, as EMQX since 6.0 leaves an entry that was not
// edited untouched (5.8.9 stamps every entry of the root afresh and so reinstalls them all).
import { isDeepStrictEqual } from 'node:util'
import type { StoredResource } from './store.ts'

type Config = Record<string, unknown>
export type Root = Record<string, Record<string, Config>>

/** The rows a root's change saves or deletes. */
export interface RootChanges {
  removed: StoredResource[]
  added: StoredResource[]
  changed: StoredResource[]
}

/** Builds the row a create (no `previous`) or an update of `type:name` saves. */
export type RowOf = (type: string, name: string, config: Config, previous: StoredResource | undefined) => StoredResource

const withoutTimes = ({ created_at: _c, last_modified_at: _m, ...config }: Config): Config => config

export function sameConfig(a: Config, b: Config): boolean {
  return isDeepStrictEqual(withoutTimes(a), withoutTimes(b))
}

/** `next` against the saved rows `before`; `removes` false (a data backup's merge by name) keeps what `next` leaves out. */
export function diffRoot(before: readonly StoredResource[], next: Root, rowOf: RowOf, removes = true): RootChanges {
  const changes: RootChanges = { removed: [], added: [], changed: [] }
  const saved = new Map(before.map((stored) => [`${stored.type}\u0000${stored.name}`, stored]))
  for (const [type, byName] of Object.entries(next)) {
    for (const [name, config] of Object.entries(byName)) {
      const key = `${type}\u0000${name}`
      const previous = saved.get(key)
      saved.delete(key)
      if (!previous) changes.added.push(rowOf(type, name, config, undefined))
      else if (!sameConfig(previous.config, config)) changes.changed.push(rowOf(type, name, config, previous))
    }
  }
  if (removes) changes.removed = [...saved.values()]
  return changes
}
