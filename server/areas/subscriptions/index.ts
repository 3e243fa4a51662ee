// Every session's subscriptions: /subscriptions.
import { defineServerArea } from '../area.ts'
import { subscriptionRoutes } from './routes.ts'

export const subscriptionsArea = defineServerArea({
  name: 'subscriptions',
  routes: [subscriptionRoutes],
})
