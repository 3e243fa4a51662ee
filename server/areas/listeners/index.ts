// The broker's MQTT listeners: /listeners, /listeners_status.
import { defineServerArea } from '../area.ts'
import { ListenersFeature } from './feature.ts'
import { listenersMigrations } from './migrations.ts'
import { listenerRoutes } from './routes.ts'
import { ListenersRepository } from './store.ts'

export const listenersArea = defineServerArea({
  name: 'listeners',
  migrations: listenersMigrations,
  install: (ctx) => new ListenersFeature(ctx.broker, new ListenersRepository(ctx.db), ctx.config.dataDir),
  routes: [listenerRoutes],
})
