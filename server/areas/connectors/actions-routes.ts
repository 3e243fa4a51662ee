// /actions, /actions_probe, /actions_summary, /action_types, /nodes/{node}/actions/{id}/start.
import { bridgeRoutes } from './bridge-endpoints.ts'

export const actionsRoutes = bridgeRoutes('actions')
