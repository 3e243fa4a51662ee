// /connector/create: the type, then its form (forms/IntegrationCreate.tsx); `?from=<id>` duplicates.
import { IntegrationCreate } from './forms/IntegrationCreate.tsx'

export function ConnectorCreate() {
  return <IntegrationCreate role="connector" />
}
