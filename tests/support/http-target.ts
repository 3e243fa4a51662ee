// A real HTTP server for data-integration tests to send to (the http connector's target): it
// answers 200 and keeps each request, its body as text in `received` and whole in `requests`.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedRequest {
  path: string
  body: string
  headers: Record<string, string | string[] | undefined>
}

export interface HttpTarget {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** The bodies received, in arrival order. */
  received: string[]
  /** The requests received (path, body, headers), in arrival order. */
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
      requests.push({ path: req.url ?? '', body, headers: req.headers })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    requests,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
