// A real node:http server for the HTTP connector to send to: it answers 200 and keeps every request
// it received (path, body, headers), in order.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedRequest {
  path: string
  body: string
  headers: Record<string, string | string[] | undefined>
}

export interface HttpTarget {
  url: string
  received: ReceivedRequest[]
  close(): Promise<void>
}

export async function startHttpTarget(): Promise<HttpTarget> {
  const received: ReceivedRequest[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push({ path: req.url ?? '', body, headers: req.headers })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
