// The three kinds of data integration the screens show (connectors, actions, sources): their
// routes, their commands and how each is read, so one list and one detail serve all three.
import { deleteConnector, disableConnector, enableConnector, startConnector } from '../../../commands/connectors.ts'
import { deleteAction, disableAction, enableAction, resetMetricsAction, startAction } from '../../../commands/actions.ts'
import { deleteSource, disableSource, enableSource, resetMetricsSource, startSource } from '../../../commands/sources.ts'
import type { IntegrationKind } from '../../../commands/integration.ts'
import type { BridgeMetricsResponse, NodeStatus } from '../../../contract/connectors.ts'
import * as v from 'valibot'
import type { Api } from '../../api/index.ts'
import { queryText } from '../../api/listQuery.ts'

export type { IntegrationKind }

/** One connector, action or source as the screens show it. */
export interface IntegrationItem {
  id: string
  type: string
  name: string
  enable: boolean
  description: string
  status: string
  status_reason?: string | undefined
  node_status: NodeStatus[]
  created_at?: number | undefined
  last_modified_at?: number | undefined
  /** Actions and sources: the connector's name. */
  connector?: string
  /** Actions and sources: the ids of the rules using it. */
  rules: string[]
  /** Connectors: the names of the actions and the sources on it. */
  actions: string[]
  sources: string[]
}

export interface KindInfo {
  kind: IntegrationKind
  /** `connector`, `action`, `source`: the locale keys' part. */
  one: 'connector' | 'action' | 'source'
  listPath: string
  createPath: string
  detailPath: string
  commands: {
    enable: typeof enableConnector
    disable: typeof disableConnector
    start: typeof startConnector
    remove: typeof deleteAction
    resetMetrics?: typeof resetMetricsAction
  }
}

export const KIND_INFO: Record<IntegrationKind, KindInfo> = {
  connectors: {
    kind: 'connectors',
    one: 'connector',
    listPath: '/connector/list',
    createPath: '/connector/create',
    detailPath: '/connector/$id',
    commands: { enable: enableConnector, disable: disableConnector, start: startConnector, remove: deleteConnector },
  },
  actions: {
    kind: 'actions',
    one: 'action',
    listPath: '/rule/actions',
    createPath: '/rule/actions/create',
    detailPath: '/rule/actions/$id',
    commands: { enable: enableAction, disable: disableAction, start: startAction, remove: deleteAction, resetMetrics: resetMetricsAction },
  },
  sources: {
    kind: 'sources',
    one: 'source',
    listPath: '/rule/sources',
    createPath: '/rule/sources/create',
    detailPath: '/rule/sources/$id',
    commands: { enable: enableSource, disable: disableSource, start: startSource, remove: deleteSource, resetMetrics: resetMetricsSource },
  },
}

/** A list's URL: a part of the name (any case), and the type. */
export const integrationSearch = v.object({ name: v.optional(queryText()), type: v.optional(queryText()) })

/** True when the item's name holds `name` (any case) and its type is `type`, each when given. */
export function matchesSearch(item: Pick<IntegrationItem, 'name' | 'type'>, search: { name?: string | undefined; type?: string | undefined }): boolean {
  return (!search.name || item.name.toLowerCase().includes(search.name.toLowerCase())) && (!search.type || item.type === search.type)
}

/** Enabled but not connected (on every node): it can be started again (Reconnect), as EMQX's dashboard offers. */
export const canReconnect = (item: Pick<IntegrationItem, 'enable' | 'status'>) => item.enable && (item.status === 'disconnected' || item.status === 'inconsistent')

/** Every item of a kind, as the list shows it: connectors from GET /connectors, actions and sources from their summaries. */
export async function readItems(api: Api, kind: IntegrationKind, signal?: AbortSignal): Promise<IntegrationItem[]> {
  if (kind === 'connectors') {
    return (await api.connectors.list(signal)).map((c) => ({
      ...pick(c),
      rules: [],
      actions: c.actions,
      sources: c.sources,
    }))
  }
  return (await api.connectors[kind].summary(signal)).map((b) => ({ ...pick(b), rules: b.rules, actions: [], sources: [] }))
}

/** One item, for its detail screen. */
export async function readItem(api: Api, kind: IntegrationKind, id: string, signal?: AbortSignal): Promise<IntegrationItem> {
  if (kind === 'connectors') {
    const c = await api.connectors.get(id, signal)
    return { ...pick(c), rules: [], actions: c.actions, sources: c.sources }
  }
  const b = await api.connectors[kind].get(id, signal)
  return { ...pick(b), connector: b.connector, rules: b.rules, actions: [], sources: [] }
}

/** Metrics of an action or source; null for a connector (5.8 keeps none for connectors). */
export function readMetrics(api: Api, kind: IntegrationKind, id: string, signal?: AbortSignal): Promise<BridgeMetricsResponse> | null {
  return kind === 'connectors' ? null : api.connectors[kind].metrics(id, signal)
}

type Common = { type: string; name: string; enable: boolean; description?: string | undefined; status: string; status_reason?: string | undefined; node_status: NodeStatus[]; created_at?: number | undefined; last_modified_at?: number | undefined }

function pick(item: Common): Omit<IntegrationItem, 'rules' | 'actions' | 'sources'> {
  return {
    id: `${item.type}:${item.name}`,
    type: item.type,
    name: item.name,
    enable: item.enable,
    description: item.description ?? '',
    status: item.status,
    status_reason: item.status_reason,
    node_status: item.node_status,
    created_at: item.created_at,
    last_modified_at: item.last_modified_at,
  }
}
