// The backend of each kind of authenticator config.
import type { AuthenticatorConfig } from '../../../contract/authn.ts'
import { BuiltInDatabase } from './built-in-database.ts'
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
  return new BuiltInDatabase('password_based:built_in_database', config, repository)
}
