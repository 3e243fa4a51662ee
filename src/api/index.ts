// The typed EMQX v5 API: one module per area, composed over one Http client.
import type { Http } from './http.ts'
import { authApi } from './auth.ts'
import { clientsApi } from './clients.ts'
import { subscriptionsApi } from './subscriptions.ts'

export function createApi(http: Http) {
  return {
    http,
    auth: authApi(http),
    clients: clientsApi(http),
    subscriptions: subscriptionsApi(http),
  }
}

export type Api = ReturnType<typeof createApi>
