// Redis for authentication, authorization and data integration (node-redis, Redis' own client): a
// single server, a cluster or a sentinel-managed primary, as EMQX's `redis_type` says; commands are
// templates split into arguments, each placeholder filling an argument, never text re-parsed.
import type { ConnectionOptions } from 'node:tls'
import { createClient, createCluster, createSentinel } from 'redis'
import { checked, parseServer, reasonOf, type Backend, type BackendHealth } from './resource.ts'
import { parseTemplate, renderTemplate, type Template, type TemplateValues } from './template.ts'

export type RedisConfig = {
  password?: string
  username?: string
  timeoutMs?: number
  /** TLS to every server (a connector's client TLS group); undefined is plain TCP. */
  tls?: ConnectionOptions
} & (
  | { redis_type: 'single'; server: string; database?: number }
  | { redis_type: 'cluster'; servers: string }
  | { redis_type: 'sentinel'; servers: string; sentinel: string; database?: number }
)

/** EMQX's `servers`: addresses separated by commas. */
function serverList(servers: string) {
  return servers
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean)
    .map((server) => parseServer(server, 6379))
}

/** A Redis command line split into arguments: spaces separate, double quotes keep spaces in one. */
export function splitCommand(line: string): string[] {
  const args: string[] = []
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)) args.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2])
  return args
}

/** A command whose arguments are templates, for `RedisBackend.command`; `allowed` limits the command names. */
export function parseCommand(line: string, vars: readonly string[], allowed?: readonly string[]): Template[] {
  const args = splitCommand(line)
  if (args.length === 0) throw new Error('empty Redis command')
  const name = args[0].toUpperCase()
  if (allowed && !allowed.includes(name)) throw new Error(`cmd must be ${allowed.join(' or ')}, not ${name}`)
  return args.map((arg) => parseTemplate(arg, vars))
}

type Client = ReturnType<typeof createClient> | ReturnType<typeof createCluster> | ReturnType<typeof createSentinel>

export class RedisBackend implements Backend {
  private readonly client: Client
  /** A cluster routes each command by its key; a sentinel's client takes whether it only reads. */
  private readonly kind: RedisConfig['redis_type']
  private readonly timeoutMs: number
  private connecting: Promise<unknown> | undefined
  /** What the client last failed with: while it retries, a health check times out, and this is why. */
  private lastError: unknown

  constructor(config: RedisConfig) {
    this.timeoutMs = config.timeoutMs ?? 5000
    this.kind = config.redis_type
    const credentials = { password: config.password || undefined, username: config.username || undefined }
    // Reconnects every second while the server is away, as EMQX's `auto_reconnect`.
    const socket = { connectTimeout: this.timeoutMs, reconnectStrategy: () => 1000, ...(config.tls ? { tls: true as const, ...config.tls } : {}) }
    if (config.redis_type === 'single') {
      const { host, port } = parseServer(config.server, 6379)
      this.client = createClient({ socket: { host, port, ...socket }, ...credentials, database: config.database ?? 0 })
    } else if (config.redis_type === 'cluster') {
      this.client = createCluster({ rootNodes: serverList(config.servers).map(({ host, port }) => ({ socket: { host, port, ...socket } })), defaults: credentials })
    } else {
      this.client = createSentinel({
        name: config.sentinel,
        sentinelRootNodes: serverList(config.servers),
        nodeClientOptions: { ...credentials, database: config.database ?? 0, socket },
        ...(config.tls ? { sentinelClientOptions: { socket: { tls: true as const, ...config.tls } } } : {}),
      })
    }
    this.client.on('error', (error: unknown) => (this.lastError = error))
  }

  private connected(): Promise<unknown> {
    this.connecting ??= this.client.connect().catch((error: unknown) => {
      this.connecting = undefined
      throw error
    })
    return this.connecting
  }

  /** Runs a command whose arguments are templates; the reply as Redis gives it. */
  async command(args: readonly Template[], values: TemplateValues): Promise<unknown> {
    await this.connected()
    const rendered = args.map((arg) => renderTemplate(arg, values))
    return this.send(rendered)
  }

  private send(args: readonly string[]): Promise<unknown> {
    // A cluster routes by the key, the first argument after the command's name.
    if (this.kind === 'cluster') return (this.client as ReturnType<typeof createCluster>).sendCommand(args[1], false, [...args])
    if (this.kind === 'sentinel') return (this.client as ReturnType<typeof createSentinel>).sendCommand(false, [...args])
    return (this.client as ReturnType<typeof createClient>).sendCommand([...args])
  }

  /** Runs commands already rendered to arguments, in one pipeline (on a cluster each to its key's node). */
  async pipeline(commands: ReadonlyArray<readonly string[]>): Promise<unknown[]> {
    await this.connected()
    // node-redis writes the commands of one turn together: sent at once, they travel as a pipeline.
    if (this.kind !== 'single') return Promise.all(commands.map((args) => this.send(args)))
    const client = this.client as ReturnType<typeof createClient>
    if (commands.length === 1) return [await client.sendCommand(commands[0])]
    const multi = client.multi()
    for (const args of commands) multi.addCommand([...args])
    return multi.execAsPipeline()
  }

  async health(): Promise<BackendHealth> {
    this.lastError = undefined
    const health = await checked(this.timeoutMs, async () => {
      await this.connected()
      await this.command([['PING']], {})
    })
    return health.status === 'connected' || this.lastError === undefined ? health : { status: 'disconnected', reason: reasonOf(this.lastError) }
  }

  async close(): Promise<void> {
    if (!this.connecting) return this.client.destroy()
    // close() waits for queued commands, which never drain while the server is away.
    let timer: ReturnType<typeof setTimeout> | undefined
    const gaveUp = await Promise.race([
      this.client.close().then(() => false, () => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), 1000))),
    ])
    clearTimeout(timer)
    if (gaveUp) this.client.destroy()
  }
}
