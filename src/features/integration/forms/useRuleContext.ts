// What SPEC 5's bridge rules need to know besides the form: for an MQTT action or source, its
// connector's pool size, the other actions and sources on that connector, and the cluster's size.
import { useApi } from '../../../app/useApi.ts'
import { useServerData } from '../../../app/useServerData.ts'
import type { BridgeOnConnector } from './bridgeRules.ts'

export interface RuleContext {
  poolSize: number
  nodes: number
  others: BridgeOnConnector[]
}

export function useRuleContext(type: string, connector: string, enabled: boolean): RuleContext | null {
  const api = useApi()
  const { data } = useServerData(
    ['connectors'],
    async (signal): Promise<RuleContext> => {
      const [connectors, actions, sources, nodes] = await Promise.all([
        api.connectors.list(signal),
        api.connectors.actions.list(signal),
        api.connectors.sources.list(signal),
        api.nodes.list(signal).catch(() => []),
      ])
      const own = connectors.find((c) => c.type === type && c.name === connector)
      const topicOf = (parameters: Record<string, unknown>) => (typeof parameters.topic === 'string' ? parameters.topic : '')
      const on = (b: { type: string; connector: string }) => b.type === type && b.connector === connector
      return {
        poolSize: typeof own?.pool_size === 'number' ? own.pool_size : 8,
        nodes: Math.max(1, nodes.length),
        others: [
          ...actions.filter(on).map((b) => ({ kind: 'actions' as const, name: b.name, topic: topicOf(b.parameters) })),
          ...sources.filter(on).map((b) => ({ kind: 'sources' as const, name: b.name, topic: topicOf(b.parameters) })),
        ],
      }
    },
    [api, type, connector],
    { enabled },
  )
  return data
}
