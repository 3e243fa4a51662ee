// A real HTTP server for the data-integration tests, benches and e2e journeys to send to: it answers
// `status()` (200 unless told otherwise), with `reply`'s JSON when set, and hands the body of each request it took (a 2xx answer)
// to `take`. It can be stopped and started again on the same port, as a webhook target that goes
// away and comes back.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request the sink took: its method, path and headers. */
export interface SinkRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
}

export class HttpSink {
  port = 0
  /** The TCP connections it accepted, since it was made. */
  connections = 0
  status: () => number = () => 200
  /** A JSON body to answer a request with (an authenticator's answer); none: an empty body. */
  reply: ((body: string, request: SinkRequest) => unknown) | undefined = undefined
  private server: Server | undefined

  private readonly take: (body: string, request: SinkRequest) => void

  constructor(take: (body: string, request: SinkRequest) => void) {
    this.take = take
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  async up(): Promise<void> {
    const server = createServer({ keepAlive: true }, (req, res) => {
      let body = ''
      req.setEncoding('utf8')
      req.on('data', (chunk: string) => (body += chunk))
      req.on('end', () => {
        const status = this.status()
        if (status >= 200 && status < 300) this.take(body, { method: req.method ?? '', path: req.url ?? '/', headers: req.headers })
        const json = this.reply?.(body, { method: req.method ?? '', path: req.url ?? '/', headers: req.headers })
        if (json === undefined) return res.writeHead(status, { 'content-length': '0' }).end()
        const text = JSON.stringify(json)
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text)
      })
    })
    server.on('connection', () => this.connections++)
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve))
    this.port = (server.address() as AddressInfo).port
    this.server = server
  }

  /** Closes the server and every connection to it: senders see the connection refused. */
  async down(): Promise<void> {
    const server = this.server
    this.server = undefined
    if (!server) return
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}
