// Log traces (/trace): per client, topic, address or rule, written to files under <data>/trace
// between their start and end times.
import { defineServerArea } from '../area.ts'
import { rulesArea } from '../rules/index.ts'
import { TraceHub } from '../../trace/hub.ts'
import { TraceFeature } from './feature.ts'
import { traceMigrations } from './migrations.ts'
import { traceRoutes } from './routes.ts'
import { TraceRepository } from './store.ts'

export const traceArea = defineServerArea({
  name: 'trace',
  migrations: traceMigrations,
  install: (ctx) => {
    const engine = ctx.use(rulesArea).engine
    const hub = new TraceHub(ctx.broker, [
      { attach: (emitter) => (engine.tracer = emitter), detach: () => (engine.tracer = undefined) },
    ])
    return new TraceFeature(ctx.broker, new TraceRepository(ctx.db), hub, ctx.config.dataDir)
  },
  routes: [traceRoutes],
})
