// The broker's MQTT listeners: /listeners.
import { defineServerArea } from '../area.ts'
import { listenerRoutes } from './routes.ts'

export const listenersArea = defineServerArea({
  name: 'listeners',
  routes: [listenerRoutes],
})
