// The routing table: /topics.
import { defineServerArea } from '../area.ts'
import { topicRoutes } from './routes.ts'

export const topicsArea = defineServerArea({
  name: 'topics',
  routes: [topicRoutes],
})
