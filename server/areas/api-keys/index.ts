// API keys: HTTP Basic key:secret credentials the login guard accepts, managed through /api_key.
import { defineServerArea } from '../area.ts'
import { loginArea } from '../login/index.ts'
import { apiKeyMigrations } from './migrations.ts'
import { apiKeyRoutes } from './routes.ts'
import { ApiKeyRepository } from './store.ts'

export const apiKeysArea = defineServerArea({
  name: 'api-keys',
  migrations: apiKeyMigrations,
  install: (ctx) => {
    const apiKeys = new ApiKeyRepository(ctx.db)
    ctx.use(loginArea).guard.acceptApiKeys(apiKeys.verify)
    return apiKeys
  },
  routes: [(app, { feature }) => apiKeyRoutes(app, { apiKeys: feature })],
})
