// A real HTTP server for data-integration tests to send to (the http connector's, an HTTP action's or
// a webhook's target): it answers 200 to everything and keeps each request, its body as text in
// `received` and whole (method, path, headers, body) in `requests`. The server is http-sink.ts.
import { HttpSink, type SinkRequest } from './http-sink.ts'

export interface ReceivedRequest extends SinkRequest {
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
  /** Answers each request with this JSON (an HTTP authenticator's answer) instead of an empty body. */
  reply(json: (request: ReceivedRequest) => unknown): void
  /** The TCP connections it accepted: a kept-alive sender opens no new one. */
  connections(): number
  close(): Promise<void>
}

export async function startHttpTarget(): Promise<HttpTarget> {
  const received: string[] = []
  const requests: ReceivedRequest[] = []
  const sink = new HttpSink((body, request) => {
    received.push(body)
    requests.push({ ...request, body })
  })
  await sink.up()
  const reply = (json: (request: ReceivedRequest) => unknown) => {
    sink.reply = (body, request) => json({ ...request, body })
  }
  return { url: sink.url, port: sink.port, received, requests, reply, connections: () => sink.connections, close: () => sink.down() }
}
