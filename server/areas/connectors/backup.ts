// Connectors, actions and sources in a data backup, as EMQX's cluster.hocon holds them: the roots
// `connectors`, `actions` and `sources`, each `{<type>: {<name>: config}}`. An import checks every
// entry's type and name before anything is written, keeps what the backup does not name (5.8's
// merge_confs by name), and runs what it added or changed; the rest keeps running as it was.
import * as v from 'valibot'
import { nameError } from '../../../contract/connectors.ts'
import type { SettingsStore } from '../../http/settings-route.ts'
import type { IntegrationFeature } from './feature.ts'
import { diffRoot, type Root, type RootChanges, type RowOf } from './root-diff.ts'
import type { ResourceKind } from './store.ts'

/** One root as a data backup's settings document (server/areas/data-backup/documents.ts). */
export function integrationDocument(feature: IntegrationFeature, kind: ResourceKind) {
  const store: SettingsStore = {
    get(): Root | undefined {
      const list = feature.repository.list(kind)
      if (list.length === 0) return undefined
      const root: Root = {}
      for (const stored of list) (root[stored.type] ??= {})[stored.name] = stored.config
      return root
    },
    set(_key, value) {
      // Only what the backup adds or changes is written and, once the import landed, run (apply).
      pending = diffRoot(feature.repository.list(kind), value as Root, backupRow, false)
      for (const stored of [...pending.added, ...pending.changed]) feature.repository.put(stored)
    },
  }
  /** A backup's entry keeps the times its config carries. */
  const backupRow: RowOf = (type, name, config) => {
    const now = Date.now()
    const createdAt = typeof config.created_at === 'number' ? config.created_at : now
    const updatedAt = typeof config.last_modified_at === 'number' ? config.last_modified_at : createdAt
    return { kind, type, name, config, createdAt, updatedAt }
  }
  let pending: RootChanges | undefined
  let problem = ''
  /** Why a root cannot be imported, or undefined. */
  const why = (root: Root): string | undefined => {
    const offered = feature.types(kind)
    for (const [type, byName] of Object.entries(root)) {
      if (!offered.includes(type)) return `${kind}: unknown resource type: ${type}`
      for (const name of Object.keys(byName)) {
        const bad = nameError(name)
        if (bad) return `${kind}.${type}: ${bad}`
      }
    }
    return undefined
  }
  return {
    store,
    key: `integration_${kind}`,
    schema: v.pipe(
      v.record(v.string(), v.record(v.string(), v.record(v.string(), v.unknown()))),
      v.check((root) => (problem = why(root) ?? '') === '', () => problem),
    ),
    apply: () => {
      if (pending) feature.applyChanges({ [kind]: pending })
      pending = undefined
    },
  }
}
