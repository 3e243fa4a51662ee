// The dashboard's own sign-in: POST /login and /logout, dashboard users, and the guard every API
// request passes (a login token or an API key).
import { defineServerArea } from '../area.ts'
import { LoginGuard } from './guard.ts'
import { LoginLock } from './login-lock.ts'
import { loginMigrations } from './migrations.ts'
import { loginRoutes } from './routes.ts'
import { TokenRepository } from './token-store.ts'
import { userRoutes } from './user-routes.ts'
import { UserRepository } from './user-store.ts'

export interface Login {
  users: UserRepository
  tokens: TokenRepository
  guard: LoginGuard
  /** Failed-login limits per user and per address. */
  lock: LoginLock
  /** Creates `admin` / `public` on the first start. */
  start(): Promise<void>
}

export const loginArea = defineServerArea({
  name: 'login',
  migrations: loginMigrations,
  install: (ctx): Login => {
    const users = new UserRepository(ctx.db)
    const tokens = new TokenRepository(ctx.db)
    const guard = new LoginGuard({ tokens, ttlMs: ctx.config.tokenTtlMs })
    return { users, tokens, guard, lock: new LoginLock(), start: () => users.ensureDefaultUser() }
  },
  routes: [(app, { feature }) => loginRoutes(app, feature), (app, { feature, db }) => userRoutes(app, { ...feature, db })],
  requestGuard: ({ feature }) => feature.guard.hook,
})
