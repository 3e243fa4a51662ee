// Connected and persistent clients: /clients and /clients_v2, kick (one or in bulk), keep alive,
// the session count, the authorization cache, and acting for a client (subscribe, queues).
import { defineServerArea } from '../area.ts'
import { clientActionRoutes } from './action-routes.ts'
import { authzCacheRoutes } from './authz-cache-routes.ts'
import { clientControlRoutes } from './control-routes.ts'
import { clientRoutes } from './routes.ts'
import { sessionRoutes } from './sessions-routes.ts'
import { clientsV2Routes } from './v2-routes.ts'

export const clientsArea = defineServerArea({
  name: 'clients',
  routes: [clientRoutes, clientsV2Routes, clientControlRoutes, clientActionRoutes, sessionRoutes, authzCacheRoutes],
})
