// /rule/sources/create: the type, then its form with the connector to use (forms/IntegrationCreate.tsx); `?from=<id>` duplicates.
import { IntegrationCreate } from './forms/IntegrationCreate.tsx'

export function SourceCreate() {
  return <IntegrationCreate role="source" />
}
