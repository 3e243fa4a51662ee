// The broker's listeners, a managed set keyed by EMQX's id `<type>:<name>`: MQTT over TCP (tcp),
// TLS (ssl), WebSocket (ws) and WebSocket over TLS (wss), each really listening on its own port,
// added, changed, started, stopped and removed while the broker runs. Every type accepts on a
// plain TCP server first, where the connection limits, the PROXY protocol header and TCP options
// apply; TLS and WebSocket are layered on the accepted socket. Each accepted client reaches the
// broker as a plain duplex stream, so the protocol code never knows the transport.
// quic is configured and reported but never runs, as EMQX answers without its QUIC library.
import { readFileSync } from 'node:fs'
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from 'node:http'
import { BlockList, createServer as createTcpServer, isIP, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { createSecureContext, createServer as createTlsServer, type SecureContextOptions, type Server as TlsServer, type TLSSocket } from 'node:tls'
import { createWebSocketStream, WebSocketServer } from 'ws'
import { formatBind, parseAccessRule, parseBind, parseRate, type ListenerConfig, type ListenerType, type SslOptions, type WebsocketOptions } from '../../contract/listeners.ts'
import { parseDuration } from '../../contract/units.ts'
import type { ConnectionMeta } from './connection.ts'
import { log } from '../log/index.ts'
import { readProxyHeader, type ProxiedPeer } from './proxy-protocol.ts'

/** Where a listener really listens: the address it bound and the port it got. */
export interface BoundAddress {
  host: string
  port: number
}

/** One listener as the management API reports it. */
export interface ListenerState {
  /** `tcp:default`: type and name, as EMQX names listeners. */
  id: string
  type: ListenerType
  name: string
  config: ListenerConfig
  running: boolean
  /** Sockets accepted on this listener and not closed yet (CONNECT or not, as EMQX counts them). */
  currentConnections: number
  bound: BoundAddress | undefined
}

/** A listener that could not start, worded as EMQX's `{failed_to_start, "<id>(<bind>) : <reason>"}`. */
export class ListenerStartError extends Error {
  constructor(id: string, bind: string, reason: string) {
    super(`{failed_to_start,"${id}(${bind}) : ${reason}"}`)
  }
}

/** Adding an id that is there already (two creates of one id at once: the second finds the first). */
export class ListenerExistsError extends Error {
  constructor(id: string) {
    super(`listener ${id} exists`)
  }
}

/** WebSocket subprotocols always accepted besides the configured ones: MQTT 3.1's name, which mqtt.js uses. */
const EXTRA_SUBPROTOCOLS = ['mqttv3.1']

/** An address as EMQX shows it: IPv4 clients of a dual-stack listener without their `::ffff:` prefix. */
export function plainAddress(address: string | undefined): string {
  if (!address) return ''
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address
}

/**
 * The client's address and port. Node keeps the address it read as an object on the socket (one
 * more object with a hidden class of its own, some 130 bytes on each of many idle connections); the
 * broker keeps the two values, so Node's copy is let go.
 */
function peerOf(socket: Socket): ProxiedPeer {
  const peer = { peerhost: plainAddress(socket.remoteAddress), peerport: socket.remotePort ?? 0 }
  ;(socket as Socket & { _peername?: unknown })._peername = undefined
  return peer
}

/** Accepts at most `count` sockets per `perMs`, refilled continuously (`max_conn_rate`). */
class RateLimit {
  private readonly count: number
  private readonly perMs: number
  private tokens: number
  private at = Date.now()
  constructor(count: number, perMs: number) {
    this.count = count
    this.perMs = perMs
    this.tokens = count
  }
  take(): boolean {
    const now = Date.now()
    this.tokens = Math.min(this.count, this.tokens + ((now - this.at) * this.count) / this.perMs)
    this.at = now
    if (this.tokens < 1) return false
    this.tokens -= 1
    return true
  }
}

type Accept = (stream: Duplex, meta: ConnectionMeta) => void

interface AccessRule {
  allow: boolean
  /** Undefined: every address. */
  range: BlockList | undefined
}

function accessRulesOf(rules: readonly string[]): AccessRule[] {
  return rules.flatMap((text): AccessRule[] => {
    const rule = parseAccessRule(text)
    if (!rule) return []
    if (rule.cidr === 'all') return [{ allow: rule.allow, range: undefined }]
    const range = new BlockList()
    range.addSubnet(rule.cidr.address, rule.cidr.prefix, rule.cidr.family)
    return [{ allow: rule.allow, range }]
  })
}

/** The first rule matching the address decides; none matching lets it in. */
function allowed(rules: readonly AccessRule[], address: string): boolean {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
  for (const rule of rules) if (!rule.range || rule.range.check(address, family)) return rule.allow
  return true
}

// A broker holds many idle sockets. A plain TCP socket goes straight to the broker, which says
// when its connection closed (`ListenerSet.released`), so it carries no listener of ours: a second
// close or error listener turns the socket's single function into an array, 100 bytes a socket.
// A socket that waits first (for its PROXY header, its TLS handshake, its WebSocket upgrade) may
// close before the broker sees it: it gets two functions shared by all, which find the listener
// that accepted it here, not closures made per socket.
const owners = new WeakMap<Socket, RunningListener>()
function forgetSocket(this: Socket): void {
  owners.get(this)?.sockets.delete(this)
}
function destroySocket(this: Socket): void {
  this.destroy()
}

/** What one started listener holds: its server, its sockets, and what its configuration makes of new connections. */
class RunningListener {
  readonly sockets = new Set<Socket>()
  readonly server: TcpServer
  bound: BoundAddress | undefined
  readonly id: string
  private readonly type: ListenerType
  private readonly accept: Accept
  private readonly maxPacketSize: () => number
  // Set by `configure`, which a change of everything but the address calls again: new
  // connections follow the new settings, open ones stay, as EMQX's esockd:set_options and
  // ranch:set_protocol_options leave them.
  private config!: ListenerConfig
  private limit = Infinity
  private access: AccessRule[] = []
  private rate: RateLimit | undefined
  private tls: TlsServer | undefined
  private http: HttpServer | undefined
  /** Every WebSocket server made, closed with the listener (a reconfigured one keeps serving its connections). */
  private readonly wsServers: WebSocketServer[] = []
  /** The peer of a socket handed to the TLS or HTTP server (the PROXY header's, or the socket's own). */
  private readonly peers = new WeakMap<Socket, ProxiedPeer>()

  constructor(id: string, type: ListenerType, config: ListenerConfig, accept: Accept, maxPacketSize: () => number) {
    this.id = id
    this.type = type
    this.accept = accept
    this.maxPacketSize = maxPacketSize
    this.configure(config)
    // Paused until it is known whether a PROXY header comes first, and TLS reads its socket itself.
    this.server = createTcpServer({ pauseOnConnect: true }, (socket) => this.onSocket(socket))
  }

  /** Takes a configuration on the same address; throws (changing nothing) when its TLS files are bad. */
  configure(config: ListenerConfig): void {
    const tls = this.type === 'ssl' || this.type === 'wss' ? this.tlsServer(config) : undefined
    const rate = config.max_conn_rate && config.max_conn_rate !== 'infinity' ? parseRate(config.max_conn_rate) : undefined
    this.config = config
    this.limit = config.max_connections === 'infinity' ? Infinity : config.max_connections
    this.access = accessRulesOf(config.access_rules)
    this.rate = rate && new RateLimit(rate.count, rate.perMs)
    this.tls = tls
    this.http = this.type === 'ws' || this.type === 'wss' ? this.webSocketServer(config) : undefined
  }

  async listen(): Promise<BoundAddress> {
    const bind = parseBind(this.config.bind)!
    const backlog = this.config.tcp_options.backlog
    this.bound = await new Promise<BoundAddress>((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen({ port: bind.port, host: bind.host, backlog }, () => {
        this.server.off('error', reject)
        this.server.on('error', (error) => log.error({ listener: this.id, err: error }, 'listener_error'))
        const address = this.server.address() as AddressInfo
        resolve({ host: address.address, port: address.port })
      })
    })
    return this.bound
  }

  /** Stops accepting and closes every connection it holds. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()))
    for (const wss of this.wsServers) wss.close()
    for (const socket of this.sockets) socket.destroy()
    await closed
  }

  private onSocket(socket: Socket): void {
    // Over the limit or the rate: refused at once, as esockd closes a socket it may not take.
    // access_rules first, on the address the socket comes from (a load balancer's, behind one), as esockd.
    if (!allowed(this.access, plainAddress(socket.remoteAddress)) || this.sockets.size >= this.limit || (this.rate && !this.rate.take())) {
      socket.destroy()
      return
    }
    this.sockets.add(socket)
    if (this.tls || this.http || this.config.proxy_protocol) {
      owners.set(socket, this)
      socket.on('close', forgetSocket)
      socket.on('error', destroySocket)
    }
    const tcp = this.config.tcp_options
    socket.setNoDelay(tcp.nodelay)
    const keepalive = /^(\d+),/.exec(tcp.keepalive)
    if (keepalive) socket.setKeepAlive(true, Number(keepalive[1]) * 1000)
    if (!this.config.proxy_protocol) {
      if (!this.tls) socket.resume()
      return this.handOver(socket, peerOf(socket))
    }
    const timeout = parseDuration(this.config.proxy_protocol_timeout) ?? 3000
    readProxyHeader(socket, timeout).then(
      (proxied) => {
        const own = peerOf(socket)
        // TLS takes over the socket's handle (and the bytes it already read) and reads itself; a
        // plain socket is resumed for the broker or the HTTP server, which read it as a stream.
        if (!this.tls) socket.resume()
        this.handOver(socket, proxied ?? own)
      },
      () => socket.destroy(),
    )
  }

  /** After the limits and the PROXY header: TLS, then MQTT or the WebSocket upgrade. */
  private handOver(socket: Socket, peer: ProxiedPeer): void {
    if (this.tls) {
      // The TLS server never listens: it is handed sockets this listener accepted.
      this.peers.set(socket, peer)
      this.tls.emit('connection', socket)
      return
    }
    this.serve(socket, peer)
  }

  private tlsServer(config: ListenerConfig): TlsServer {
    const ssl = config.ssl_options!
    const verify = ssl.verify === 'verify_peer'
    const server = createTlsServer({
      ...tlsOptionsOf(ssl),
      requestCert: verify,
      rejectUnauthorized: verify && ssl.fail_if_no_peer_cert,
      handshakeTimeout: parseDuration(ssl.handshake_timeout) ?? 15_000,
    })
    server.on('secureConnection', (secure: TLSSocket) => {
      // verify_peer without fail_if_no_peer_cert: a certificate sent must verify, none may be sent.
      if (verify && !secure.authorized && secure.getPeerX509Certificate()) return void secure.destroy()
      const raw = (secure as TLSSocket & { _parent?: Socket })._parent
      this.serve(secure, (raw && this.peers.get(raw)) ?? peerOf(secure))
    })
    server.on('tlsClientError', (_error, secure) => secure.destroy())
    return server
  }

  private serve(socket: Socket, peer: ProxiedPeer): void {
    if (!this.http) return this.accept(socket, { listener: this.id, ...peer, socket })
    this.peers.set(socket, peer)
    this.http.emit('connection', socket)
  }

  private webSocketServer(config: ListenerConfig): HttpServer {
    const ws = config.websocket!
    const http = createHttpServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`MQTT over WebSocket lives at ${ws.mqtt_path}\n`)
    })
    const subprotocols = [...ws.supported_subprotocols.split(',').map((p) => p.trim()).filter(Boolean), ...EXTRA_SUBPROTOCOLS]
    const origins = ws.check_origins.split(',').map((o) => o.trim())
    // One WebSocket server per frame limit in use (ws fixes maxPayload per server): the limit
    // follows max_packet_size (live) for each new connection, or one client could make the broker
    // hold 256 MB; a settings change applies to connections made after it.
    const servers = new Map<number, WebSocketServer>()
    const serverFor = (limit: number): WebSocketServer => {
      let wss = servers.get(limit)
      if (!wss) {
        wss = new WebSocketServer({
          noServer: true,
          perMessageDeflate: ws.compress,
          skipUTF8Validation: !ws.validate_utf8,
          // One WebSocket message carries at most one MQTT packet in practice; leave room for its header.
          maxPayload: limit + 16,
          handleProtocols: (offered) => subprotocols.find((protocol) => offered.has(protocol)) ?? false,
        })
        wss.on('connection', (socket, request: IncomingMessage) => {
          const stream = createWebSocketStream(socket)
          const own = this.peers.get(request.socket) ?? peerOf(request.socket)
          const peer = config.proxy_protocol ? own : forwardedPeer(request, ws, own)
          this.accept(stream, { listener: this.id, ...peer, socket: request.socket })
        })
        servers.set(limit, wss)
        this.wsServers.push(wss)
      }
      return wss
    }
    http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const refuse = () => socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
      if (new URL(request.url ?? '/', 'http://localhost').pathname !== ws.mqtt_path) return refuse()
      if (ws.fail_if_no_subprotocol && !request.headers['sec-websocket-protocol']) return refuse()
      const origin = request.headers.origin
      if (ws.check_origin_enable && (origin === undefined ? !ws.allow_origin_absence : !origins.includes(origin))) return refuse()
      const frameLimit = ws.max_frame_size === 'infinity' ? this.maxPacketSize() : Math.min(ws.max_frame_size, this.maxPacketSize())
      const wss = serverFor(frameLimit)
      wss.handleUpgrade(request, socket, head, (client) => wss.emit('connection', client, request))
    })
    return http
  }
}

/** The first address of `proxy_address_header` (x-forwarded-for) and port of `proxy_port_header`, as emqx_ws_connection's get_peer; the socket's own where they are absent or not an address. */
function forwardedPeer(request: IncomingMessage, ws: WebsocketOptions, own: ProxiedPeer): ProxiedPeer {
  const first = (name: string) => {
    const value = request.headers[name.toLowerCase()]
    return (Array.isArray(value) ? value[0] : value)?.split(/[, ]+/).find(Boolean)
  }
  const address = first(ws.proxy_address_header)
  const port = Number(first(ws.proxy_port_header))
  return {
    peerhost: address && isIP(address) ? address : own.peerhost,
    peerport: Number.isInteger(port) && port > 0 && port < 65536 ? port : own.peerport,
  }
}

/** The server's certificate, key and CA from the files `ssl_options` names; throws the reason when one is missing or bad. */
function tlsOptionsOf(ssl: SslOptions): SecureContextOptions {
  if (!ssl.certfile || !ssl.keyfile) throw new Error('ssl_options needs certfile and keyfile')
  const read = (path: string) => readFileSync(path)
  const [min, max] = tlsRange(ssl.versions)
  const options: SecureContextOptions = {
    cert: read(ssl.certfile),
    key: read(ssl.keyfile),
    ...(ssl.password ? { passphrase: ssl.password } : {}),
    ...(ssl.cacertfile ? { ca: read(ssl.cacertfile) } : {}),
    ...(ssl.ciphers.length > 0 ? { ciphers: ssl.ciphers.join(':') } : {}),
    honorCipherOrder: ssl.honor_cipher_order,
    minVersion: min,
    maxVersion: max,
  }
  // A key that does not match its certificate, or a bad passphrase, fails here rather than at each handshake.
  createSecureContext(options)
  return options
}

type TlsVersion = 'TLSv1.3' | 'TLSv1.2' | 'TLSv1.1' | 'TLSv1'
const NODE_TLS: Record<string, TlsVersion> = { 'tlsv1.3': 'TLSv1.3', 'tlsv1.2': 'TLSv1.2', 'tlsv1.1': 'TLSv1.1', tlsv1: 'TLSv1' }
const ORDER: TlsVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']

/** Node takes a range of versions, EMQX a list: the list's lowest and highest. */
function tlsRange(versions: readonly string[]): [TlsVersion, TlsVersion] {
  const known = versions.map((version) => NODE_TLS[version]).filter(Boolean).sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))
  return known.length > 0 ? [known[0], known[known.length - 1]] : ['TLSv1.2', 'TLSv1.3']
}

function sameAddress(a: string, b: string): boolean {
  return formatBind(parseBind(a)!) === formatBind(parseBind(b)!)
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE') return 'eaddrinuse'
  if (code === 'EADDRNOTAVAIL') return 'eaddrnotavail'
  if (code === 'EACCES') return 'eacces'
  return (error as Error).message ?? String(error)
}

interface Entry {
  type: ListenerType
  name: string
  config: ListenerConfig
  running: RunningListener | undefined
}

/**
 * The listeners by id. Changes are serialised: each waits for the one before, so a start cannot
 * overtake the stop of the same port.
 */
export class ListenerSet {
  private readonly entries = new Map<string, Entry>()
  private queue: Promise<unknown> = Promise.resolve()

  private readonly accept: Accept
  private readonly maxPacketSize: () => number

  constructor(accept: Accept, maxPacketSize: () => number) {
    this.accept = accept
    this.maxPacketSize = maxPacketSize
  }

  has(id: string): boolean {
    return this.entries.has(id)
  }

  /** The configuration in force (`bind` with the port really bound when 0 was asked). */
  config(id: string): ListenerConfig | undefined {
    return this.entries.get(id)?.config
  }

  /** The port a listener got, as EMQX's `sockport`; 0 when it does not run. */
  port(id: string): number {
    return this.entries.get(id)?.running?.bound?.port ?? 0
  }

  /** The connection on `socket` closed: the listener that accepted it holds it no longer (see `owners`). */
  released(id: string, socket: Socket): void {
    this.entries.get(id)?.running?.sockets.delete(socket)
  }

  list(): ListenerState[] {
    return [...this.entries].map(([id, entry]) => ({
      id,
      type: entry.type,
      name: entry.name,
      config: entry.config,
      running: entry.running !== undefined,
      currentConnections: entry.running?.sockets.size ?? 0,
      bound: entry.running?.bound,
    }))
  }

  /**
   * Adds a listener and starts it when enabled. A start that fails leaves nothing behind and
   * throws ListenerStartError, unless `keepOnFailure` (restoring at start-up, as EMQX boots with a
   * listener that cannot bind).
   */
  add(id: string, type: ListenerType, name: string, config: ListenerConfig, keepOnFailure = false): Promise<void> {
    return this.serial(async () => {
      if (this.entries.has(id)) throw new ListenerExistsError(id)
      const entry: Entry = { type, name, config, running: undefined }
      try {
        if (config.enable) entry.running = await this.launch(id, entry)
      } catch (error) {
        if (!keepOnFailure) throw error
        log.error({ listener: id, reason: error instanceof Error ? error.message : String(error) }, 'failed_to_start_listener')
      }
      this.entries.set(id, entry)
    })
  }

  /**
   * Replaces a listener's configuration. On the same address a running listener keeps its open
   * connections and new ones follow the new settings; another address (or `restart`) starts it
   * again, closing them; disabled, it stops. On failure the old configuration stays in force.
   */
  update(id: string, config: ListenerConfig, restart = false): Promise<void> {
    return this.serial(async () => {
      const entry = this.entry(id)
      const before = entry.config
      if (!restart && entry.running && config.enable && sameAddress(before.bind, config.bind)) {
        try {
          entry.running.configure(config)
        } catch (error) {
          throw new ListenerStartError(id, formatBind(parseBind(config.bind)!), errorCode(error))
        }
        entry.config = config
        return
      }
      await this.halt(entry)
      entry.config = config
      try {
        if (config.enable) entry.running = await this.launch(id, entry)
      } catch (error) {
        entry.config = before
        if (before.enable) entry.running = await this.launch(id, entry).catch(() => undefined)
        throw error
      }
    })
  }

  /** Stops (closing every connection) and forgets a listener. */
  remove(id: string): Promise<void> {
    return this.serial(async () => {
      await this.halt(this.entry(id))
      this.entries.delete(id)
    })
  }

  /** start, stop and restart, which set `enable` as EMQX persists it. */
  action(id: string, action: 'start' | 'stop' | 'restart'): Promise<void> {
    const config = this.entry(id).config
    if (action === 'stop') return this.update(id, { ...config, enable: false })
    if (action === 'start' && this.entry(id).running) return Promise.resolve()
    return this.update(id, { ...config, enable: true }, true)
  }

  close(): Promise<void> {
    return this.serial(async () => {
      await Promise.all([...this.entries.values()].map((entry) => this.halt(entry)))
    })
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id)
    if (!entry) throw new Error(`no listener ${id}`)
    return entry
  }

  private async halt(entry: Entry): Promise<void> {
    const running = entry.running
    entry.running = undefined
    if (!running) return
    await running.close()
    log.info({ listener: running.id, bind: entry.config.bind }, 'listener_stopped')
  }

  private async launch(id: string, entry: Entry): Promise<RunningListener | undefined> {
    // No QUIC in Node's stable API: configured, never running (EMQX's `quic_app_missing`).
    if (entry.type === 'quic') return undefined
    const bindText = formatBind(parseBind(entry.config.bind)!)
    let running: RunningListener
    try {
      running = new RunningListener(id, entry.type, entry.config, this.accept, this.maxPacketSize)
    } catch (error) {
      throw new ListenerStartError(id, bindText, errorCode(error))
    }
    try {
      const bound = await running.listen()
      // Port 0 picks a free port: the configuration says which one it got.
      if (parseBind(entry.config.bind)!.port === 0) entry.config = { ...entry.config, bind: formatBind(bound) }
      log.info({ listener: id, bind: formatBind(bound) }, 'listener_started')
      return running
    } catch (error) {
      throw new ListenerStartError(id, bindText, errorCode(error))
    }
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task)
    this.queue = run.catch(() => undefined)
    return run
  }
}
