// The e2e tracing whitelists (EMQX emqx_otel_sampler): client ids and topic filters whose events are
// always traced in e2e mode, whatever the sample ratio and the event switches say. Kept across restarts.
import { OTEL_WHITELIST_TYPES, type OtelWhitelistType } from '../../../contract/opentelemetry.ts'
import { matchesFilter } from '../../broker/topic-trie.ts'
import type { SettingsStore } from '../../http/settings-route.ts'

const KEY = 'opentelemetry_whitelist'

export class Whitelist {
  private readonly store: SettingsStore
  private readonly lists: Record<OtelWhitelistType, string[]> = { clientid: [], topic: [] }
  private clientids = new Set<string>()

  constructor(store: SettingsStore) {
    this.store = store
    const stored = store.get(KEY) as Partial<Record<OtelWhitelistType, unknown>> | undefined
    for (const type of OTEL_WHITELIST_TYPES) {
      const list = stored?.[type]
      if (Array.isArray(list)) this.lists[type] = list.filter((entry): entry is string => typeof entry === 'string')
    }
    this.clientids = new Set(this.lists.clientid)
  }

  get(type: OtelWhitelistType): readonly string[] {
    return this.lists[type]
  }

  /** Replaces one list (an empty list purges it). */
  replace(type: OtelWhitelistType, entries: readonly string[]): void {
    this.lists[type] = [...new Set(entries)]
    if (type === 'clientid') this.clientids = new Set(this.lists.clientid)
    this.store.set(KEY, this.lists)
  }

  hasClient(clientid: string | undefined): boolean {
    return clientid !== undefined && this.clientids.has(clientid)
  }

  hasTopic(topic: string): boolean {
    return this.lists.topic.some((filter) => matchesFilter(filter, topic))
  }
}
