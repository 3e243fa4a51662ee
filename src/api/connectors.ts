// Data integration (`/connectors`, `/actions`, `/sources`): connectors, the actions (sinks) and
// sources on them, their metrics, probes and the types the server offers. Ids are `type:name`.
import * as v from 'valibot'
import {
  BridgeMetricsResponseSchema,
  BridgeSchema,
  BridgeSummarySchema,
  ConnectorSchema,
  TypeListSchema,
  type Bridge,
  type BridgeKind,
  type BridgeMetricsResponse,
  type BridgeSummary,
  type Connector,
} from '../../contract/connectors.ts'
import type { Http } from './http.ts'
import { pathSegment } from './clients.ts'

export { resourceId, type Bridge, type BridgeKind, type BridgeMetricsResponse, type BridgeSummary, type Connector } from '../../contract/connectors.ts'

/** A connector's body: `type`, `name` and the type's own fields (`url`, `server`, `resource_opts`...). */
export type ConnectorInput = { type: string; name: string } & Record<string, unknown>
/** An action's or source's body. */
export type BridgeInput = { type: string; name: string; connector: string; parameters: Record<string, unknown> } & Record<string, unknown>

export function connectorsApi(http: Http) {
  const bridges = (kind: BridgeKind) => {
    const one = kind === 'actions' ? 'action' : 'source'
    return {
      list: (signal?: AbortSignal): Promise<Bridge[]> => http.get(kind, v.array(BridgeSchema), {}, signal),
      get: (id: string, signal?: AbortSignal): Promise<Bridge> => http.get(`${kind}/${pathSegment(id)}`, BridgeSchema, {}, signal),
      /** 400 ALREADY_EXISTS 'bridge already exists'. */
      create: (body: BridgeInput): Promise<Bridge> => http.send('post', kind, BridgeSchema, body),
      /** The whole config without type and name; `******` keeps a stored secret. */
      update: (id: string, body: Record<string, unknown>): Promise<Bridge> => http.send('put', `${kind}/${pathSegment(id)}`, BridgeSchema, body),
      /** 400 with `rules` while rules depend on it, unless `alsoDeleteDepActions` takes it out of them first. */
      delete: (id: string, alsoDeleteDepActions = false): Promise<void> =>
        http.send('delete', `${kind}/${pathSegment(id)}${alsoDeleteDepActions ? '?also_delete_dep_actions=true' : ''}`, null),
      enable: (id: string, enable: boolean): Promise<void> => http.send('put', `${kind}/${pathSegment(id)}/enable/${enable}`, null),
      start: (id: string): Promise<void> => http.send('post', `${kind}/${pathSegment(id)}/start`, null),
      metrics: (id: string, signal?: AbortSignal): Promise<BridgeMetricsResponse> => http.get(`${kind}/${pathSegment(id)}/metrics`, BridgeMetricsResponseSchema, {}, signal),
      resetMetrics: (id: string): Promise<void> => http.send('put', `${kind}/${pathSegment(id)}/metrics/reset`, null),
      /** 400 TEST_FAILED with the reason ('Test failed'). */
      probe: (body: BridgeInput): Promise<void> => http.send('post', `${kind}_probe`, null, body),
      summary: (signal?: AbortSignal): Promise<BridgeSummary[]> => http.get(`${kind}_summary`, v.array(BridgeSummarySchema), {}, signal),
      types: (signal?: AbortSignal): Promise<string[]> => http.get(`${one}_types`, TypeListSchema, {}, signal),
    }
  }

  return {
    list: (signal?: AbortSignal): Promise<Connector[]> => http.get('connectors', v.array(ConnectorSchema), {}, signal),
    get: (id: string, signal?: AbortSignal): Promise<Connector> => http.get(`connectors/${pathSegment(id)}`, ConnectorSchema, {}, signal),
    /** 400 ALREADY_EXISTS 'connector already exists'. */
    create: (body: ConnectorInput): Promise<Connector> => http.send('post', 'connectors', ConnectorSchema, body),
    update: (id: string, body: Record<string, unknown>): Promise<Connector> => http.send('put', `connectors/${pathSegment(id)}`, ConnectorSchema, body),
    /** 400 while actions or sources use it. */
    delete: (id: string): Promise<void> => http.send('delete', `connectors/${pathSegment(id)}`, null),
    enable: (id: string, enable: boolean): Promise<void> => http.send('put', `connectors/${pathSegment(id)}/enable/${enable}`, null),
    start: (id: string): Promise<void> => http.send('post', `connectors/${pathSegment(id)}/start`, null),
    /** 400 TEST_FAILED with the reason ('Test failed'). */
    probe: (body: ConnectorInput): Promise<void> => http.send('post', 'connectors_probe', null, body),
    actions: bridges('actions'),
    sources: bridges('sources'),
  }
}

export type ConnectorsApi = ReturnType<typeof connectorsApi>
