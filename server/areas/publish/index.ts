// Publishing through the API: /publish and /publish/bulk.
import { defineServerArea } from '../area.ts'
import { publishRoutes } from './routes.ts'

export const publishArea = defineServerArea({
  name: 'publish',
  routes: [publishRoutes],
})
