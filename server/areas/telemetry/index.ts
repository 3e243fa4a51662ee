// Telemetry: /telemetry/status (always off: the embedded server reports nothing to anyone) and
// /telemetry/data, the report EMQX would send, about this node.
import { defineServerArea } from '../area.ts'
import { autoSubscribeArea } from '../auto-subscribe/index.ts'
import { delayedArea } from '../delayed/index.ts'
import { topicRewriteArea } from '../topic-rewrite/index.ts'
import { telemetryRoutes, type TelemetrySources } from './routes.ts'

export const telemetryArea = defineServerArea({
  name: 'telemetry',
  install: (ctx): TelemetrySources => ({ rewrite: ctx.use(topicRewriteArea), delayed: ctx.use(delayedArea), autoSubscribe: ctx.use(autoSubscribeArea) }),
  routes: [telemetryRoutes],
})
