// The dashboard monitor: a sample of the broker's figures every interval, kept 7 days (/monitor).
import { defineServerArea } from '../area.ts'
import { MonitorSampler } from './feature.ts'
import { monitorMigrations } from './migrations.ts'
import { monitorRoutes } from './routes.ts'
import { MonitorRepository } from './store.ts'

export const monitorArea = defineServerArea({
  name: 'monitor',
  migrations: monitorMigrations,
  install: (ctx) =>
    new MonitorSampler(ctx.broker, new MonitorRepository(ctx.db), {
      intervalMs: ctx.config.dashboardMonitor?.sampleIntervalMs ?? 10_000,
      now: ctx.config.dashboardMonitor?.now ?? Date.now,
    }),
  routes: [monitorRoutes],
})
