// Connected and persistent clients: /clients, kick, and acting for a client (subscribe, queues).
import { defineServerArea } from '../area.ts'
import { clientActionRoutes } from './action-routes.ts'
import { clientRoutes } from './routes.ts'

export const clientsArea = defineServerArea({
  name: 'clients',
  routes: [clientRoutes, clientActionRoutes],
})
