// Starts the real server in-process on free ports with a throwaway data directory, and gives tests
// a logged-in API helper and real mqtt.js clients. Nothing here mocks the server.
import { mkdtempSync, rmSync } from 'node:fs'
import { connect as netConnect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import mqtt, { type IClientOptions, type IClientSubscribeOptions, type MqttClient } from 'mqtt'
import { generate, parser as createParser, type IConnectPacket, type Packet } from 'mqtt-packet'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { Config } from '../../server/config.ts'
import { startServer, type RunningServer } from '../../server/start.ts'

export interface ApiResponse<T = any> {
  status: number
  body: T
}

export interface Api {
  token: string
  request<T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>
  get<T = any>(path: string): Promise<ApiResponse<T>>
  post<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>
  delete<T = any>(path: string): Promise<ApiResponse<T>>
}

export interface TestServer {
  server: RunningServer
  url: string
  dataDir: string
  mqttUrl: string
  wsUrl: string
  /** A raw request to `/api/v5<path>` with whatever headers the test gives. */
  raw(path: string, init?: RequestInit): Promise<ApiResponse>
  /** Logs in (admin / public unless told otherwise) and returns a client that sends the token. */
  login(username?: string, password?: string): Promise<Api>
  /**
   * An mqtt.js client that does not reconnect, resolved once CONNACK arrived. `setup` runs before
   * connecting, for listeners that must not miss what arrives right after CONNACK.
   */
  connect(options?: IClientOptions & { transport?: 'tcp' | 'ws' }, setup?: (client: MqttClient) => void): Promise<MqttClient>
  /** Stops the server; the data directory is removed unless `keepData`. */
  close(options?: { keepData?: boolean }): Promise<void>
}

async function readBody(response: Response): Promise<any> {
  const text = await response.text()
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export function apiFor(url: string, token: string): Api {
  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/api/v5${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    })
    return { status: response.status, body: await readBody(response) }
  }
  return {
    token,
    request,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body),
    delete: (path) => request('DELETE', path),
  }
}

export async function login(url: string, username = 'admin', password = 'public'): Promise<Api> {
  const response = await fetch(`${url}/api/v5/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  })
  const body = await readBody(response)
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(body)}`)
  return apiFor(url, body.token)
}

const openClients = new Set<MqttClient>()

export async function startTestServer(options: { dataDir?: string; config?: Partial<Config> } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'emqx-console-test-'))
  const server = await startServer({ port: 0, mqttPort: 0, wsPort: 0, host: '127.0.0.1', dataDir, ...options.config })
  const mqttUrl = `mqtt://127.0.0.1:${server.mqttPort}`
  const wsUrl = `ws://127.0.0.1:${server.wsPort}/mqtt`
  return {
    server,
    url: server.url,
    dataDir,
    mqttUrl,
    wsUrl,
    async raw(path, init) {
      const response = await fetch(`${server.url}/api/v5${path}`, init)
      return { status: response.status, body: await readBody(response) }
    },
    login: (username, password) => login(server.url, username, password),
    connect: ({ transport = 'tcp', ...clientOptions } = {}, setup) => connectMqtt(transport === 'ws' ? wsUrl : mqttUrl, clientOptions, setup),
    async close({ keepData = false } = {}) {
      await server.close()
      if (!keepData) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export function connectMqtt(url: string, options: IClientOptions = {}, setup?: (client: MqttClient) => void): Promise<MqttClient> {
  const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 5000, ...options })
  setup?.(client)
  openClients.add(client)
  client.on('close', () => openClients.delete(client))
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client))
    client.once('error', reject)
    client.once('close', () => reject(new Error(`connection to ${url} closed before CONNACK`)))
  })
}

/** Ends every mqtt.js client the helpers opened (for afterEach). */
export async function endClients(): Promise<void> {
  await Promise.all([...openClients].map((client) => client.endAsync(true)))
  openClients.clear()
}

/** Polls `check` until it returns something other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Resolves with the next message the client receives on any topic. */
export function nextMessage(client: MqttClient): Promise<{ topic: string; payload: string; qos: number; retain: boolean }> {
  return new Promise((resolve) => {
    client.once('message', (topic, payload, packet) => resolve({ topic, payload: payload.toString(), qos: packet.qos, retain: packet.retain }))
  })
}

/** The SUBACK reason codes for a SUBSCRIBE, failures included (mqtt.js rejects when any code is 0x80 or above). */
export async function subackCodes(client: MqttClient, topics: string | string[], options: IClientSubscribeOptions = { qos: 0 }): Promise<number[]> {
  try {
    return (await client.subscribeAsync(topics, options)).map((grant) => grant.qos)
  } catch (error) {
    const granted = (error as { packet?: { granted?: Array<number | { qos: number }> } }).packet?.granted
    if (!granted) throw error
    return granted.map((grant) => (typeof grant === 'number' ? grant : grant.qos))
  }
}

/** Collects every message a client receives, for assertions after the fact. */
export function collect(client: MqttClient): Array<{ topic: string; payload: string; qos: number; retain: boolean }> {
  const messages: Array<{ topic: string; payload: string; qos: number; retain: boolean }> = []
  client.on('message', (topic, payload, packet) => messages.push({ topic, payload: payload.toString(), qos: packet.qos, retain: packet.retain }))
  return messages
}

export function closed(client: MqttClient): Promise<void> {
  return new Promise((resolve) => {
    if (client.disconnected || (!client.connected && !client.reconnecting)) return resolve()
    client.once('close', () => resolve())
  })
}

export interface Suite {
  t: TestServer
  api: Api
}

/**
 * One logged-in server for a describe block. After each test, every mqtt.js client the test opened
 * (and whatever `cleanup` ends) is closed, and the test waits until the server has forgotten them,
 * so no test sees another's clients.
 */
export function serverPerSuite(cleanup?: () => void): Suite {
  const suite = {} as Suite
  beforeAll(async () => {
    suite.t = await startTestServer()
    suite.api = await suite.t.login()
  })
  afterEach(async () => {
    await endClients()
    cleanup?.()
    await waitFor(async () => (await suite.api.get('/clients')).body.meta.count === 0, 'no clients left')
  })
  afterAll(async () => {
    await suite.t.close()
  })
  return suite
}

/** A bare TCP client speaking MQTT through mqtt-packet, for what mqtt.js will not do (bad packets, silence, no acks). */
export interface RawClient {
  socket: Socket
  /** Every packet received, in order. */
  packets: Packet[]
  closed: Promise<void>
  send(packet: Packet | Buffer): void
  /** Waits for the first received packet of that type that passes `match`. */
  next<C extends Packet['cmd']>(cmd: C, match?: (packet: Extract<Packet, { cmd: C }>) => boolean): Promise<Extract<Packet, { cmd: C }>>
}

const rawSockets = new Set<Socket>()

export function rawClient(port: number, protocolVersion: 3 | 4 | 5 = 4): RawClient {
  const socket = netConnect(port, '127.0.0.1')
  rawSockets.add(socket)
  socket.once('close', () => rawSockets.delete(socket))
  const packets: Packet[] = []
  const parser = createParser({ protocolVersion })
  parser.on('packet', (packet) => packets.push(packet))
  socket.on('data', (chunk: Buffer) => parser.parse(chunk))
  socket.on('error', () => {})
  return {
    socket,
    packets,
    closed: new Promise((resolve) => socket.once('close', () => resolve())),
    send: (packet) => socket.write(Buffer.isBuffer(packet) ? packet : generate(packet, { protocolVersion })),
    next: (cmd, match) =>
      waitFor(() => packets.find((p) => p.cmd === cmd && (!match || match(p as never))) as never, `a ${cmd} packet`),
  }
}

/** Destroys every raw socket still open (for afterEach). */
export function destroyRawClients(): void {
  for (const socket of rawSockets) socket.destroy()
  rawSockets.clear()
}

/** A CONNECT packet with sensible defaults (MQTT 3.1.1, clean, keep alive 60). */
export function connectPacket(fields: Partial<IConnectPacket> & { protocolVersion?: 3 | 4 | 5 }): IConnectPacket {
  return { cmd: 'connect', protocolId: fields.protocolVersion === 3 ? 'MQIsdp' : 'MQTT', protocolVersion: 4, clean: true, keepalive: 60, clientId: '', ...fields }
}
