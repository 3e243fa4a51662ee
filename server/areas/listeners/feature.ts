// The listeners as the API manages them: each change is checked whole (the type's schema, the
// certificates), made on the broker's listener set (a port in use or a bad certificate fails there
// and changes nothing), then saved; saved listeners come back at start-up.
import { join } from 'node:path'
import * as v from 'valibot'
import {
  formatBind,
  ListenerConfigSchemas,
  listenersErrors,
  MASKED_SECRET,
  parseBind,
  TLS_TYPES,
  type ListenerConfig,
  type ListenerType,
} from '../../../contract/listeners.ts'
import type { Broker } from '../../broker/broker.ts'
import { ListenerExistsError, ListenerStartError, type ListenerState } from '../../broker/listeners.ts'
import { badRequest, contractError } from '../../http/errors.ts'
import { mergeSettings } from '../../http/settings-route.ts'
import { BadSslConfig, storeCertificates } from './certs.ts'
import type { ListenersRepository } from './store.ts'

/** The ids whose bind the server's settings give (MQTT_PORT, WS_PORT, BIND), re-created at every start as EMQX re-creates its defaults. */
const SETTINGS_LISTENERS = ['tcp:default', 'ws:default']

/** Fields a client may send back from what it read; they are not configuration. */
const READ_ONLY = ['id', 'type', 'name', 'running', 'current_connections']

function withoutReadOnly(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !READ_ONLY.includes(key)))
}

/** A change the broker refused or a bad body: EMQX's 400 BAD_REQUEST with its reason. */
function refused(error: unknown): Error {
  if (error instanceof ListenerExistsError) return contractError(listenersErrors.exists)
  if (error instanceof ListenerStartError || error instanceof BadSslConfig) return contractError(listenersErrors.badRequest, error.message)
  return error as Error
}

/** Waits for a change on the broker, turning its refusal into the API's 400. */
async function refusing(change: Promise<void>): Promise<void> {
  try {
    await change
  } catch (error) {
    throw refused(error)
  }
}

export class ListenersFeature {
  private readonly broker: Broker
  private readonly repository: ListenersRepository
  private readonly certsDir: string

  constructor(broker: Broker, repository: ListenersRepository, dataDir: string) {
    this.broker = broker
    this.repository = repository
    this.certsDir = join(dataDir, 'certs')
  }

  /** Brings back the saved listeners once the broker listens with the two of the settings. */
  async start(): Promise<void> {
    for (const saved of this.repository.list()) {
      if (SETTINGS_LISTENERS.includes(saved.id)) {
        const bind = this.broker.listeners.config(saved.id)?.bind
        if (!bind) continue
        await this.broker.listeners.update(saved.id, { ...saved.config, bind }).catch((error: unknown) => console.error(error instanceof Error ? error.message : error))
      } else {
        await this.broker.listeners.add(saved.id, saved.type, saved.name, saved.config, true)
      }
    }
  }

  list(): ListenerState[] {
    return this.broker.listenerStates()
  }

  get(id: string): ListenerState | undefined {
    return this.list().find((listener) => listener.id === id)
  }

  /** `POST /listeners` and `POST /listeners/{id}`. */
  async create(type: ListenerType, name: string, body: Record<string, unknown>): Promise<void> {
    const id = `${type}:${name}`
    if (this.broker.listeners.has(id)) throw contractError(listenersErrors.exists)
    const config = this.check(type, name, withoutReadOnly(body), undefined)
    await refusing(this.broker.listeners.add(id, type, name, config))
    this.save(id, type, name)
  }

  /** `PUT /listeners/{id}`: the body deep-merged into the configuration in force. */
  async update(id: string, type: ListenerType, name: string, body: Record<string, unknown>): Promise<void> {
    const current = this.broker.listeners.config(id)
    if (!current) throw contractError(listenersErrors.notFound)
    if (this.get(id)?.type !== type) throw badRequest('listener_type_inconsistent')
    const config = this.check(type, name, mergeSettings(current, withoutReadOnly(body)) as Record<string, unknown>, current)
    // As 5.8's pre_config_update of an update (not of a create): the one zone there is, `default`.
    if (config.zone !== 'default') throw contractError(listenersErrors.badRequest, `{unknown_zone,<<"${config.zone}">>}`)
    await refusing(this.broker.listeners.update(id, config))
    this.save(id, type, name)
  }

  async remove(id: string): Promise<void> {
    if (!this.broker.listeners.has(id)) throw contractError(listenersErrors.notFound)
    await this.broker.listeners.remove(id)
    this.repository.remove(id)
  }

  /** start, stop, restart: `enable` follows, and is saved, as EMQX persists it. */
  async action(id: string, action: 'start' | 'stop' | 'restart'): Promise<void> {
    const state = this.get(id)
    if (!state) throw contractError(listenersErrors.notFound)
    await refusing(this.broker.listeners.action(id, action))
    this.save(id, state.type, state.name)
  }

  /** The body as the type's configuration, defaults filled, pasted PEM written to files. */
  private check(type: ListenerType, name: string, raw: Record<string, unknown>, current: ListenerConfig | undefined): ListenerConfig {
    const ssl = raw.ssl_options as Record<string, unknown> | undefined
    // The masked passphrase sent back keeps the one saved.
    if (ssl?.password === MASKED_SECRET) raw = { ...raw, ssl_options: { ...ssl, password: current?.ssl_options?.password } }
    const result = v.safeParse(ListenerConfigSchemas[type], raw)
    if (!result.success) {
      const issue = result.issues[0]
      const path = v.getDotPath(issue)
      throw contractError(listenersErrors.badRequest, `listeners.${type}.${name}${path ? `.${path}` : ''}: ${issue.message}`)
    }
    const config = result.output as ListenerConfig
    config.bind = formatBind(parseBind(config.bind)!)
    if (!TLS_TYPES.includes(type) || !config.ssl_options) return config
    try {
      return { ...config, ssl_options: storeCertificates(this.certsDir, type, name, config.ssl_options) }
    } catch (error) {
      throw refused(error)
    }
  }

  private save(id: string, type: ListenerType, name: string): void {
    const config = this.broker.listeners.config(id)
    if (config) this.repository.save({ id, type, name, config })
  }
}
