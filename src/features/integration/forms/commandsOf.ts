// The create, update and test commands of each role: the forms' buttons run these.
import { createAction, testAction, updateAction } from '../../../../commands/actions.ts'
import { createConnector, testConnector, updateConnector } from '../../../../commands/connectors.ts'
import { createSource, testSource, updateSource } from '../../../../commands/sources.ts'
import type { IntegrationRole } from '../../../../contract/integration-fields/index.ts'

export const ROLE_COMMANDS = {
  connector: { create: createConnector, update: updateConnector, test: testConnector },
  action: { create: createAction, update: updateAction, test: testAction },
  source: { create: createSource, update: updateSource, test: testSource },
} as const satisfies Record<IntegrationRole, unknown>

/** The API kind of a role (`/connectors`, `/actions`, `/sources`). */
export const KIND_OF = { connector: 'connectors', action: 'actions', source: 'sources' } as const
