// The cluster (/cluster): the embedded server is a one-node cluster; invitations are tracked as EMQX
// tracks them and end as they end for a node it cannot reach.
import { defineServerArea } from '../area.ts'
import { Invitations } from './invitations.ts'
import { clusterRoutes } from './routes.ts'

export const clusterArea = defineServerArea({
  name: 'cluster',
  install: () => new Invitations(),
  routes: [clusterRoutes],
})
