// A real HTTP server for data-integration tests to send to (the http connector's target): it
// answers 200 and keeps each request's body as text. The server is tests/support/http-sink.ts.
import { HttpSink } from './http-sink.ts'

export interface HttpTarget {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** The bodies received, in arrival order. */
  received: string[]
  close(): Promise<void>
}

export async function startHttpTarget(): Promise<HttpTarget> {
  const received: string[] = []
  const sink = new HttpSink((body) => received.push(body))
  await sink.up()
  return { url: sink.url, received, close: () => sink.down() }
}
