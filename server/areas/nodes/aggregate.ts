// The `?aggregate=true` switch GET /stats and GET /metrics share: one object, or a list per node.
import * as v from 'valibot'
import { parseInput } from '../../http/errors.ts'

const AggregateQuery = v.object({ aggregate: v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false') })

export function perNodeOrAggregate(query: unknown, node: string, values: Record<string, number>) {
  const { aggregate } = parseInput(AggregateQuery, query, 'query')
  return aggregate === 'true' ? values : [{ node, ...values }]
}
