// A real HTTP server for data-integration tests to send to (the http connector's target): it
// answers 200 and keeps each request's body as text.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface HttpTarget {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** The bodies received, in arrival order. */
  received: string[]
  close(): Promise<void>
}

export async function startHttpTarget(): Promise<HttpTarget> {
  const received: string[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push(body)
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
