// Network listeners: MQTT over TCP, and MQTT over WebSocket at /mqtt. Each accepted client is
// handed to the broker as a plain duplex stream, so the protocol code never knows the transport.
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { createWebSocketStream, WebSocketServer } from 'ws'
import type { ConnectionMeta } from './connection.ts'
import { log } from '../log/index.ts'

export interface ListenOptions {
  host: string
  /** 0 picks a free port. */
  tcpPort: number
  /** 0 picks a free port. */
  wsPort: number
}

/** Where a listener really listens: the address it bound and the port it got. */
export interface BoundAddress {
  host: string
  port: number
}

/** One listener as the management API reports it. */
export interface ListenerState {
  /** `tcp:default`: type and name, as EMQX names listeners. */
  id: string
  type: 'tcp' | 'ws'
  name: string
  bind: BoundAddress
  /** Connections accepted on this listener and not closed yet (CONNECT or not, as EMQX counts sockets). */
  currentConnections: number
}

export interface Listeners {
  tcpPort: number
  wsPort: number
  tcp: BoundAddress
  ws: BoundAddress
  close(): Promise<void>
}

/** WebSocket subprotocols EMQX accepts for MQTT, plus the MQTT 3.1 name mqtt.js uses. */
const SUBPROTOCOLS = ['mqtt', 'mqttv3.1', 'mqtt-v3', 'mqtt-v3.1.1', 'mqtt-v5']

/** `::ffff:127.0.0.1` -> `127.0.0.1`, as EMQX shows IPv4 peers. */
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
function peerOf(socket: Socket): Pick<ConnectionMeta, 'peerhost' | 'peerport'> {
  const peer = { peerhost: plainAddress(socket.remoteAddress), peerport: socket.remotePort ?? 0 }
  ;(socket as Socket & { _peername?: unknown })._peername = undefined
  return peer
}

function listen(server: TcpServer | HttpServer, port: number, host: string): Promise<BoundAddress> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      server.on('error', (error) => log.error({ err: error }, 'listener_error'))
      const address = server.address() as AddressInfo
      resolve({ host: address.address, port: address.port })
    })
  })
}

function closeServer(server: TcpServer | HttpServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()))
}

/**
 * `maxPacketSize` is read for every new WebSocket connection: ws buffers a whole message before the
 * broker sees any of it, so its frame limit must follow `max_packet_size` (live), not sit at the
 * 256 MB maximum, or one client could make the broker hold 256 MB per connection.
 */
export async function startListeners(
  accept: (stream: Duplex, meta: ConnectionMeta) => void,
  options: ListenOptions,
  maxPacketSize: () => number,
): Promise<Listeners> {
  const tcp = createTcpServer((socket) => {
    socket.setNoDelay(true)
    accept(socket, { listener: 'tcp:default', ...peerOf(socket), socket })
  })

  const http = createHttpServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('MQTT over WebSocket lives at /mqtt\n')
  })
  // One WebSocket server per frame limit in use (ws fixes maxPayload per server); a settings change
  // applies to connections made after it, while MQTT's own size check covers the ones before.
  const servers = new Map<number, WebSocketServer>()
  const serverFor = (limit: number): WebSocketServer => {
    let wss = servers.get(limit)
    if (!wss) {
      wss = new WebSocketServer({
        noServer: true,
        perMessageDeflate: false,
        // One WebSocket message carries at most one MQTT packet in practice; leave room for its header.
        maxPayload: limit + 16,
        handleProtocols: (offered) => SUBPROTOCOLS.find((protocol) => offered.has(protocol)) ?? false,
      })
      wss.on('connection', (ws, request: IncomingMessage) => {
        const stream = createWebSocketStream(ws)
        accept(stream, { listener: 'ws:default', ...peerOf(request.socket), socket: request.socket })
      })
      servers.set(limit, wss)
    }
    return wss
  }
  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mqtt') {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
      return
    }
    const wss = serverFor(maxPacketSize())
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request))
  })

  let tcpBound: BoundAddress
  let wsBound: BoundAddress
  try {
    tcpBound = await listen(tcp, options.tcpPort, options.host)
    wsBound = await listen(http, options.wsPort, options.host)
  } catch (error) {
    tcp.close()
    http.close()
    throw error
  }

  return {
    tcpPort: tcpBound.port,
    wsPort: wsBound.port,
    tcp: tcpBound,
    ws: wsBound,
    async close() {
      for (const wss of servers.values()) wss.close()
      http.closeAllConnections()
      await Promise.all([closeServer(tcp), closeServer(http)])
    },
  }
}
