// /sources, /sources_probe, /sources_summary, /source_types, /nodes/{node}/sources/{id}/start.
import { bridgeRoutes } from './bridge-endpoints.ts'

export const sourcesRoutes = bridgeRoutes('sources')
