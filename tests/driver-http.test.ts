// The HTTP connector and action driver against a real node:http (and https) server started here on
// a free port: what it sends, what counts as success, what is retried, timeouts, TLS and health.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { RecoverableError, UnrecoverableError, type DriverContext } from '../server/integration/driver.ts'
import { httpAction, httpConnector, type HttpConnection } from '../server/integration/drivers/http.ts'
import { joinPaths, parseHttpUrl } from '../server/integration/drivers/http-url.ts'
import { makeCertificates, type TestCertificates } from './support/certs.ts'
import { renderedBy } from './support/rendered.ts'
import { Tuple } from '../server/rules/events/erlang-term.ts'

interface Received {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
  remotePort: number
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void

const ctx = { node: 'emqx@127.0.0.1', id: 'http:test' } as DriverContext
const row = { clientid: 'c1', topic: 't/1', payload: '{"temp":21}', room: 'r7', token: 'abc', qos: 1 }

let received: Received[] = []
let handler: Handler = (_req, res) => res.end('ok')

function listen(server: Server): Promise<number> {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, remotePort: req.socket.remotePort ?? 0 })
      handler(req, res, body)
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const probe = createNetServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

let server: Server
let base: string
const open: HttpConnection[] = []

async function connector(config: Record<string, unknown> = {}): Promise<HttpConnection> {
  const conn = await httpConnector.start({ url: `${base}/api`, ...config }, ctx)
  open.push(conn)
  return conn
}

const send = (conn: HttpConnection, parameters: Record<string, unknown>, data: Record<string, unknown> = row, timeoutMs = 5000) =>
  httpAction.send(conn, httpAction.prepare(parameters, ctx), [data], { timeoutMs, signal: new AbortController().signal })

beforeAll(async () => {
  server = createServer()
  base = `http://127.0.0.1:${await listen(server)}`
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((conn) => httpConnector.stop(conn)))
  received = []
  handler = (_req, res) => res.end('ok')
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('what the action sends', () => {
  it('POSTs the whole selected row as JSON to the connector path joined with the action path, with EMQX default headers', async () => {
    const conn = await connector()
    await send(conn, { path: '/room/${room}' })
    expect(received).toHaveLength(1)
    const [r] = received
    expect(r.method).toBe('POST')
    expect(r.url).toBe('/api/room/r7')
    expect(JSON.parse(r.body)).toEqual(row)
    expect(r.headers['content-type']).toBe('application/json')
    expect(r.headers.accept).toBe('application/json')
    expect(r.headers['cache-control']).toBe('no-cache')
  })

  it('renders the body template; an empty one sends an empty body, as EMQX does (only a missing body sends the row)', async () => {
    const conn = await connector()
    await send(conn, { body: '{"t":"${topic}","temp":${payload.temp}}' })
    await send(conn, { body: '' })
    expect(received[0].body).toBe('{"t":"t/1","temp":21}')
    expect(received[0].url).toBe('/api')
    expect(received[1].body).toBe('')
  })

  it('sends put with a body and get and delete without one', async () => {
    const conn = await connector()
    for (const method of ['put', 'get', 'delete']) await send(conn, { method, path: '?id=${clientid}' })
    expect(received.map((r) => [r.method, r.url, r.body])).toEqual([
      ['PUT', '/api?id=c1', JSON.stringify(row)],
      ['GET', '/api?id=c1', ''],
      ['DELETE', '/api?id=c1', ''],
    ])
  })

  it('renders header names and values; the action headers win over the connector headers', async () => {
    const conn = await connector({ headers: { 'x-from': 'connector', 'x-node': 'n1', authorization: 'Bearer ${token}' } })
    await send(conn, { headers: { 'X-From': 'action', 'x-${clientid}': '${topic}' } })
    const { headers } = received[0]
    expect(headers['x-from']).toBe('action')
    expect(headers['x-node']).toBe('n1')
    expect(headers['x-c1']).toBe('t/1')
    expect(headers.authorization).toBe('Bearer abc')
    // The connector's headers replaced EMQX's defaults.
    expect(headers['cache-control']).toBeUndefined()
  })

  it('drops the query of the connector URL as EMQX does, and a missing variable renders as undefined', async () => {
    const conn = await connector({ url: `${base}/api/\${room}?dropped=1` })
    await send(conn, { path: 'x/${nothing}' })
    expect(received[0].url).toBe('/api/r7/x/undefined')
  })

  it('reports the request it rendered (headers as pairs, Authorization redacted) before sending it', async () => {
    const conn = await connector({ headers: { authorization: 'Bearer ${token}' } })
    const prepared = httpAction.prepare({ method: 'put', path: '/p/${clientid}', headers: { 'x-t': '${topic}' }, body: '${payload}' }, ctx)
    const { host, port } = conn.config.base
    expect(await renderedBy(httpAction, conn, prepared, [row])).toEqual({
      host,
      port,
      path: '/api/p/c1',
      method: 'put',
      headers: [new Tuple(['authorization', '******']), new Tuple(['x-t', 't/1'])],
      timeout: 5000,
      body: '{"temp":21}',
      url: `http://${host}:${port}/api/p/c1`,
    })
    expect(received).toHaveLength(0)
    await httpConnector.stop(conn)
  })

  it('hash pools by client id: one client always goes through the same connection', async () => {
    const conn = await connector({ pool_type: 'hash', pool_size: 4 })
    for (let i = 0; i < 6; i++) await send(conn, {}, { ...row, n: i })
    expect(new Set(received.map((r) => r.remotePort)).size).toBe(1)
  })
})

describe('answers and retries', () => {
  it('takes any 2xx as success', async () => {
    const conn = await connector()
    for (const status of [200, 201, 204]) {
      handler = (_req, res) => res.writeHead(status).end()
      await expect(send(conn, {})).resolves.toBeUndefined()
    }
  })

  it('fails a 4xx answer at once, unrecoverable, without retrying', async () => {
    const conn = await connector()
    handler = (_req, res) => res.writeHead(404).end('no such room')
    const error = await send(conn, { max_retries: 3 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnrecoverableError)
    expect((error as Error).message).toBe('HTTP status 404: no such room')
    expect(received).toHaveLength(1)
  })

  it('takes 500 as final too: EMQX retries only 429 and 503 of the answers', async () => {
    const conn = await connector()
    handler = (_req, res) => res.writeHead(500).end()
    await expect(send(conn, {})).rejects.toBeInstanceOf(UnrecoverableError)
    expect(received).toHaveLength(1)
  })

  it('retries 503 and 429 up to max_retries, then fails recoverable', async () => {
    const conn = await connector()
    handler = (_req, res) => res.writeHead(503).end()
    await expect(send(conn, { max_retries: 3 })).rejects.toBeInstanceOf(RecoverableError)
    expect(received).toHaveLength(4)
    received = []
    handler = (_req, res) => res.writeHead(429).end()
    await expect(send(conn, { max_retries: 0 })).rejects.toBeInstanceOf(RecoverableError)
    expect(received).toHaveLength(1)
  })

  it('succeeds when a retry succeeds (two retries by default)', async () => {
    const conn = await connector()
    let n = 0
    handler = (_req, res) => res.writeHead(++n < 3 ? 503 : 200).end()
    await expect(send(conn, {})).resolves.toBeUndefined()
    expect(received).toHaveLength(3)
  })

  it('gives up with a recoverable timeout when the server does not answer in time', async () => {
    const conn = await connector()
    handler = (_req, res) => setTimeout(() => res.end('late'), 1500)
    const started = Date.now()
    const error = await send(conn, { max_retries: 5 }, row, 300).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RecoverableError)
    expect((error as Error).message).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(1200)
  })

  it('gives the request up when the resource layer aborts it', async () => {
    const conn = await connector()
    handler = (_req, res) => setTimeout(() => res.end('late'), 1500)
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const started = Date.now()
    const error = await httpAction.send(conn, httpAction.prepare({}, ctx), [row], { timeoutMs: 5000, signal: controller.signal }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RecoverableError)
    expect(Date.now() - started).toBeLessThan(1000)
    expect(received).toHaveLength(1)
  })

  it('answers a refused connection as recoverable econnrefused, and does not start on one', async () => {
    const refused = await closedPort()
    const error = await connector({ url: `http://127.0.0.1:${refused}` }).catch((e: Error) => e)
    expect((error as Error).message).toBe('econnrefused')

    // A connector whose server went away after it started.
    const gone = createServer()
    const port = await listen(gone)
    const conn = await connector({ url: `http://127.0.0.1:${port}` })
    await send(conn, {})
    gone.closeAllConnections()
    await new Promise((resolve) => gone.close(resolve))
    const failed = await send(conn, {}).catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(RecoverableError)
    expect((failed as Error).message).toBe('econnrefused')
  })
  it('fails a request it cannot make (a header value with a line break) without retrying', async () => {
    const conn = await connector()
    const error = await send(conn, { headers: { 'x-bad': '${text}' } }, { ...row, text: 'a\r\nb' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnrecoverableError)
    expect(received).toHaveLength(0)
  })

  it('answers a request cut off by the connector stopping as recoverable', async () => {
    const conn = await connector()
    handler = () => undefined
    const pending = send(conn, {}).catch((e: unknown) => e)
    await vi.waitFor(() => expect(received).toHaveLength(1))
    await httpConnector.stop(conn)
    const error = await pending
    expect(error).toBeInstanceOf(RecoverableError)
    expect((error as Error).message).toBe('closed')
  })

  it('pipelines up to enable_pipelining requests on one connection', async () => {
    // node:http answers pipelined requests one at a time, so a raw server counts them arriving.
    const raw = createNetServer((socket) => {
      let data = ''
      socket.on('data', (chunk) => {
        data += chunk.toString('latin1')
        if (data.split('POST /api HTTP/1.1').length - 1 === 4) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'.repeat(4))
      })
    })
    const port = await new Promise<number>((resolve) => raw.listen(0, '127.0.0.1', () => resolve((raw.address() as AddressInfo).port)))
    const conn = await connector({ url: `http://127.0.0.1:${port}/api`, pool_size: 1, enable_pipelining: 10 })
    await Promise.all(Array.from({ length: 4 }, (_, n) => send(conn, {}, { ...row, n })))
    await httpConnector.stop(conn)
    await new Promise((resolve) => raw.close(resolve))
  })
})

describe('health and configuration', () => {
  it('is connected while host:port accepts connections and disconnected with the reason on a closed port', async () => {
    const conn = await connector()
    expect(await httpConnector.health(conn)).toEqual({ status: 'connected' })
    const port = await closedPort()
    const closed = { ...conn, config: { ...conn.config, base: { ...conn.config.base, port } } }
    expect(await httpConnector.health(closed)).toEqual({ status: 'disconnected', reason: 'econnrefused' })
  })

  it('refuses templates in host or port, and other bad URLs, with EMQX messages', async () => {
    const start = (url: string) => httpConnector.start({ url }, ctx).then(() => 'started', (e: Error) => e.message)
    expect(await start('http://${host}/a')).toBe('Invalid URL: http://${host}/a, details: URL templates may use variables in the path, not in host or port')
    expect(await start('http://127.0.0.1:${port}/a')).toBe('Invalid URL: http://127.0.0.1:${port}/a, details: URL templates may use variables in the path, not in host or port')
    expect(await start('127.0.0.1:80/a')).toBe('Missing host in URL: 127.0.0.1:80/a')
    expect(await start('/a/b')).toBe('Missing scheme in URL: /a/b')
    expect(await start('http:/a/b')).toBe('Missing host in URL: http:/a/b')
    expect(await start('http://u:p@127.0.0.1/a')).toBe('Userinfo is not supported in URL: http://u:p@127.0.0.1/a')
    expect(await start('http://127.0.0.1/a#frag')).toBe('Fragments are not supported in URL: http://127.0.0.1/a#frag')
    expect(await start('ftp://127.0.0.1/a')).toBe('Invalid URL: ftp://127.0.0.1/a, details: unsupported_scheme ftp')
  })

  it('reads host, port and path as EMQX does, IPv6 in brackets and the scheme default port', () => {
    expect(parseHttpUrl('http://[::1]:8080/a/${b}?q=1')).toEqual({ base: { scheme: 'http', host: '::1', port: 8080, origin: 'http://[::1]:8080' }, path: '/a/${b}' })
    expect(parseHttpUrl('https://example.com').base).toEqual({ scheme: 'https', host: 'example.com', port: 443, origin: 'https://example.com:443' })
    expect(parseHttpUrl('HTTP://example.com/').base.port).toBe(80)
  })

  it('joins paths as join_paths/2: one slash between, none before a query', () => {
    const cases: Array<[string, string, string]> = [
      ['abc', 'cde', 'abc/cde'],
      ['abc/', '/cde', 'abc/cde'],
      ['', '', '/'],
      ['/', '/cde', '/cde'],
      ['/', '//cde/', '//cde/'],
      ['abc//', '//cde/', 'abc///cde/'],
      ['abc', '?v=1', 'abc?v=1'],
      ['abc/', '?v=1', 'abc/?v=1'],
    ]
    for (const [a, b, joined] of cases) expect(joinPaths(a, b)).toBe(joined)
  })

  it('checks a connector without connecting to it', () => {
    expect(() => httpConnector.check({ url: 'http://127.0.0.1:1/nothing/listens' })).not.toThrow()
    expect(() => httpConnector.check({ url: 'http://${h}:1' })).toThrow('details: URL templates may use variables in the path, not in host or port')
    expect(() => httpConnector.check({ url: 'https://127.0.0.1:1', ssl: { cacertfile: '/nonexistent/ca.pem' } })).toThrow('ssl.cacertfile: cannot read file /nonexistent/ca.pem')
  })

  it('checks the connector fields and the action parameters', async () => {
    const start = (config: Record<string, unknown>) => httpConnector.start({ url: base, ...config }, ctx).then(() => 'started', (e: Error) => e.message)
    expect(await start({ pool_size: 0 })).toBe('pool_size must be at least 1')
    expect(await start({ pool_type: 'round' })).toBe('pool_type must be random or hash')
    expect(await start({ connect_timeout: 'soon' })).toBe('connect_timeout must be a duration such as 15s or 500ms')
    expect(() => httpAction.prepare({ method: 'patch' }, ctx)).toThrow('method must be one of post, put, get, delete')
    expect(() => httpAction.prepare({ method: 'POST' }, ctx)).toThrow('method must be one of post, put, get, delete')
    expect(() => httpAction.prepare({ max_retries: -1 }, ctx)).toThrow('max_retries must be at least 0')
  })
})

describe('https', () => {
  let certs: TestCertificates
  let tlsServer: Server
  let tlsBase: string

  beforeAll(async () => {
    certs = makeCertificates('http-driver')
    tlsServer = createHttpsServer({ cert: certs.serverCert, key: certs.serverKey }) as unknown as Server
    tlsBase = `https://localhost:${await listen(tlsServer)}`
  })

  afterAll(async () => {
    tlsServer.closeAllConnections()
    await new Promise((resolve) => tlsServer.close(resolve))
    certs.remove()
  })

  it('sends over TLS, verifying the server against the CA given as PEM text', async () => {
    const conn = await connector({ url: `${tlsBase}/secure`, ssl: { enable: true, verify: 'verify_peer', cacertfile: certs.ca } })
    expect(await httpConnector.health(conn)).toEqual({ status: 'connected' })
    await send(conn, { path: '${clientid}' })
    expect(received[0].url).toBe('/secure/c1')
  })

  it('reads the CA from a file path, and verify_none (the client default) needs no CA', async () => {
    await connector({ url: tlsBase, ssl: { enable: true, verify: 'verify_peer', cacertfile: `${certs.dir}/ca.crt` } })
    const conn = await connector({ url: tlsBase })
    await send(conn, {})
    expect(received).toHaveLength(1)
  })

  it('speaks TLS for an https URL whatever ssl.enable says, and plain HTTP for an http URL', async () => {
    const conn = await connector({ url: tlsBase, ssl: { enable: false } })
    await send(conn, {})
    const plain = await connector({ url: base, ssl: { enable: true } })
    await send(plain, {})
    expect(received).toHaveLength(2)
  })

  it('does not start when verify_peer meets a certificate of an unknown CA', async () => {
    const error = await connector({ url: tlsBase, ssl: { enable: true, verify: 'verify_peer' } }).catch((e: Error) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/certificate/i)
  })
})
