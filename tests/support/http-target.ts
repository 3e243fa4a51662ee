// A real HTTP server for data-integration tests to send to (the http connector's, an HTTP action's or
// a webhook's target): it answers 200 to everything and keeps each request, its body as text in
// `received` and whole (method, path, headers, body) in `requests`.
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
}

export interface HttpTarget {
  /** `http://127.0.0.1:<port>` */
  url: string
  port: number
  /** The bodies received, in arrival order. */
  received: string[]
  /** The requests received, in arrival order; empty it to start counting again. */
  requests: ReceivedRequest[]
  close(): Promise<void>
}

export async function startHttpTarget(): Promise<HttpTarget> {
  const received: string[] = []
  const requests: ReceivedRequest[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push(body)
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    requests,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
