// Data backups (/data/*): export the embedded server's configuration and data to an archive in EMQX's
// layout, keep, list, download, delete and upload archives, and import one whole or not at all.
import { apiKeysArea } from '../api-keys/index.ts'
import { defineServerArea } from '../area.ts'
import { authnArea } from '../authn/index.ts'
import { authzArea } from '../authz/index.ts'
import { bannedArea } from '../banned/index.ts'
import { delayedArea } from '../delayed/index.ts'
import { DataBackups } from './backups.ts'
import { configDocuments } from './documents.ts'
import { dataBackupRoutes } from './routes.ts'

export const dataBackupArea = defineServerArea({
  name: 'data-backup',
  install: (ctx) => {
    const banned = ctx.use(bannedArea)
    const delayed = ctx.use(delayedArea)
    const apiKeys = ctx.use(apiKeysArea)
    return new DataBackups({
      db: ctx.db,
      dataDir: ctx.config.dataDir,
      node: ctx.broker.node,
      documents: configDocuments(ctx),
      authn: ctx.use(authnArea),
      authz: ctx.use(authzArea),
      afterImport: () => {
        // Imported bans may end at other times; imported delayed messages need their timer.
        banned.cleanUp()
        delayed.configure(delayed.config)
        apiKeys.forgetVerified()
      },
    })
  },
  routes: [dataBackupRoutes],
})
