// The `?aggregate=true` switch GET /stats and GET /metrics share: one object, or a list per node.
import { AggregateQuerySchema } from '../../../contract/stats-metrics.ts'
import { parseInput } from '../../http/errors.ts'

export function perNodeOrAggregate<T extends object>(query: unknown, node: string, values: T): T | Array<T & { node: string }> {
  const { aggregate } = parseInput(AggregateQuerySchema, query, 'query')
  return aggregate === 'true' ? values : [{ node, ...values }]
}
