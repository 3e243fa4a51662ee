// The retainer: the last retained message of each topic, kept in SQLite (/mqtt/retainer).
import { restoreSettings } from '../../http/settings-route.ts'
import { defineServerArea } from '../area.ts'
import { retainerRoutes } from './routes.ts'
import { retainerSettings } from './settings.ts'
import { retainerMigrations } from './migrations.ts'
import { SqliteRetainedStore } from './store.ts'

export const retainerArea = defineServerArea({
  name: 'retainer',
  migrations: retainerMigrations,
  install: (ctx) => {
    const retainer = ctx.broker.retainer
    const store = new SqliteRetainedStore(ctx.db)
    const settings = retainerSettings(retainer, ctx.configs)
    restoreSettings(settings)
    // `ram` storage keeps retained messages for this run only, like EMQX's RAM copies.
    if (retainer.config.backend.storage_type === 'ram') store.clear()
    retainer.useStore(store)
    return retainer
  },
  routes: [retainerRoutes],
})
