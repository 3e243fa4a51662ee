// Banned clients: refused at CONNECT and kicked when banned while connected (/banned).
import { defineServerArea } from '../area.ts'
import { BannedFeature } from './feature.ts'
import { bannedMigrations } from './migrations.ts'
import { bannedRoutes } from './routes.ts'
import { BannedRepository } from './store.ts'

export const bannedArea = defineServerArea({
  name: 'banned',
  migrations: bannedMigrations,
  install: (ctx) => new BannedFeature(ctx.broker, new BannedRepository(ctx.db)),
  routes: [bannedRoutes],
})
