// The backend of each kind of authenticator config.
import { ApiError } from '../../../contract/api-error.ts'
import type { AuthenticatorConfig } from '../../../contract/authn.ts'
import { BuiltInDatabase } from './built-in-database.ts'
import { databaseProvider } from './database-backends.ts'
import { HttpBackend } from './http-backend.ts'
import { JwtAuthenticator } from './jwt.ts'
import type { Provider } from './provider.ts'
import { ScramDatabase } from './scram.ts'
import type { AuthnRepository } from './store.ts'

/** Builds the provider of a config; a config the backend cannot use (a bad key) is a 400. */
export function createProvider(config: AuthenticatorConfig, repository: AuthnRepository): Provider {
  if (config.mechanism === 'jwt') return new JwtAuthenticator(config)
  if (config.mechanism === 'scram') return new ScramDatabase('scram:built_in_database', config, repository)
  if (config.backend === 'http') return new HttpBackend(config)
  if (config.backend !== 'built_in_database') {
    try {
      return databaseProvider(config)
    } catch (error) {
      // A server address or Redis command the backend cannot use.
      throw new ApiError(400, 'BAD_REQUEST', error instanceof Error ? error.message : String(error))
    }
  }
  return new BuiltInDatabase('password_based:built_in_database', config, repository)
}
