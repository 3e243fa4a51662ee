// The test client's connections: the default one plus up to six more (SPEC 9), alive for the
// life of the page whatever screen is shown. Settings are saved on every change so they survive
// a reload; passwords go to session storage only (this tab), never to local storage.
import { CommandError } from '../../commands/commandError.ts'
import { TestConnection, type Connect } from './connection.ts'
import { defaultSettings, type ConnectionSettings, type SettingsDefaults } from './connectionSettings.ts'
import { DEFAULT_KEPT_MESSAGES, MessageStore } from './messages/store.ts'

/** SPEC 9: at most 6 new test connections besides the default. */
export const MAX_EXTRA_CONNECTIONS = 6
export const DEFAULT_CONNECTION = 'default'

export const SETTINGS_KEY = 'testClient.connections'
export const PASSWORDS_KEY = 'testClient.passwords'
export const ACTIVE_KEY = 'testClient.active'
export const KEPT_KEY = 'testClient.keptMessages'

/** localStorage's shape, without naming the DOM. */
interface KeyValueStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

export interface ManagerOptions {
  defaults: SettingsDefaults
  /** Where settings persist (localStorage in the browser); none keeps them in memory. */
  storage?: KeyValueStorage
  /** Where passwords persist (sessionStorage in the browser). */
  secretStorage?: KeyValueStorage
  /** Messages kept per connection (the ring's size). */
  keptMessages?: number
  schedule?: ConstructorParameters<typeof MessageStore>[1]
  connect?: Connect
}

function read<T>(storage: KeyValueStorage | undefined, key: string): T | undefined {
  try {
    const text = storage?.getItem(key)
    return text ? (JSON.parse(text) as T) : undefined
  } catch {
    return undefined // blocked storage or a damaged value: start from defaults
  }
}

function write(storage: KeyValueStorage | undefined, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value))
  } catch {
    // blocked storage: settings last until the next reload only
  }
}

export class TestClientManager {
  private connections: TestConnection[] = []
  private activeName = DEFAULT_CONNECTION
  private readonly listeners = new Set<() => void>()
  private readonly options: ManagerOptions
  private kept: number

  constructor(options: ManagerOptions) {
    this.options = options
    this.kept = read<number>(options.storage, KEPT_KEY) ?? options.keptMessages ?? DEFAULT_KEPT_MESSAGES
    const saved = read<ConnectionSettings[]>(options.storage, SETTINGS_KEY) ?? []
    const passwords = read<Record<string, string>>(options.secretStorage, PASSWORDS_KEY) ?? {}
    const fresh = (name: string) => defaultSettings(name, options.defaults)
    const restored = saved
      .filter((s) => s && typeof s.name === 'string')
      .slice(0, MAX_EXTRA_CONNECTIONS + 1)
      .map((s) => ({ ...fresh(s.name), ...s, will: { ...fresh(s.name).will, ...s.will }, password: passwords[s.name] ?? '' }))
    if (!restored.some((s) => s.name === DEFAULT_CONNECTION)) restored.unshift(fresh(DEFAULT_CONNECTION))
    this.connections = restored.map((s) => this.create(s))
    const active = read<string>(options.storage, ACTIVE_KEY)
    if (active && this.get(active)) this.activeName = active
  }

  list(): readonly TestConnection[] {
    return this.connections
  }

  get(name: string): TestConnection | undefined {
    return this.connections.find((c) => c.name === name)
  }

  /** The named connection, or the active tab's when no name is given. */
  resolve(name?: string): TestConnection {
    const connection = this.get(name ?? this.activeName)
    if (!connection) throw new CommandError({ key: 'testClient.err.noConnection', values: { name: name ?? '' } })
    return connection
  }

  get active(): string {
    return this.activeName
  }

  setActive(name: string): void {
    this.resolve(name)
    this.activeName = name
    write(this.options.storage, ACTIVE_KEY, name)
    this.changed()
  }

  /** A new connection tab with fresh settings (a new random client id); refused past the limit. */
  add(name?: string): TestConnection {
    if (this.connections.length > MAX_EXTRA_CONNECTIONS)
      throw new CommandError({ key: 'testClient.err.limit', values: { max: MAX_EXTRA_CONNECTIONS } })
    const chosen = name ?? this.freeName()
    if (this.get(chosen)) throw new CommandError({ key: 'testClient.err.nameTaken', values: { name: chosen } })
    const connection = this.create(defaultSettings(chosen, this.options.defaults))
    this.connections = [...this.connections, connection]
    this.activeName = chosen
    this.persist()
    return connection
  }

  /** Closes a tab: its connection ends at once. The default connection stays. */
  remove(name: string): void {
    if (name === DEFAULT_CONNECTION) throw new CommandError({ key: 'testClient.err.removeDefault' })
    const connection = this.resolve(name)
    connection.dispose()
    this.connections = this.connections.filter((c) => c !== connection)
    if (this.activeName === name) this.activeName = DEFAULT_CONNECTION
    this.persist()
  }

  /** Changes a connection's settings (saved at once); they apply at its next connect. */
  update(name: string, patch: Partial<Omit<ConnectionSettings, 'name'>>): ConnectionSettings {
    const connection = this.resolve(name)
    const settings = { ...connection.snapshot().settings, ...patch }
    connection.setSettings(settings)
    this.persist()
    return settings
  }

  get keptMessages(): number {
    return this.kept
  }

  /** Each connection's ring size; a change starts each connection's view afresh. */
  setKeptMessages(count: number): void {
    this.kept = count
    write(this.options.storage, KEPT_KEY, count)
    for (const connection of this.connections) connection.store.resize(count)
    this.changed()
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  /** Ends every connection (page unload, tests). */
  dispose(): void {
    for (const connection of this.connections) connection.dispose()
  }

  private create(settings: ConnectionSettings): TestConnection {
    return new TestConnection(settings, new MessageStore(this.kept, this.options.schedule), this.options.connect)
  }

  private freeName(): string {
    for (let n = 2; ; n++) if (!this.get(`conn${n}`)) return `conn${n}`
  }

  private persist(): void {
    const settings = this.connections.map((c) => c.snapshot().settings)
    write(this.options.storage, SETTINGS_KEY, settings.map(({ password: _password, ...rest }) => rest))
    write(this.options.secretStorage, PASSWORDS_KEY, Object.fromEntries(settings.filter((s) => s.password).map((s) => [s.name, s.password])))
    write(this.options.storage, ACTIVE_KEY, this.activeName)
    this.changed()
  }

  private changed(): void {
    for (const listener of this.listeners) listener()
  }
}
