// The WebSocket test client's connection life (issue 5) with real mqtt.js over WebSocket against the
// embedded broker: v3.1, v3.1.1 and v5 connect and disconnect, the broker's reason codes on a
// banned client id and a kick, and connections that cannot be made or are cancelled.
import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { CommandError } from '../commands/define.ts'
import { errorMessage } from '../src/app/commands/runner.ts'
import type { ConnectionState, TestConnection } from '../src/testclient/connection.ts'
import type { TestClientManager } from '../src/testclient/manager.ts'
import { serverPerSuite, waitFor } from './support/server.ts'
import { t, testClientManager, testClientRunner, tZh } from './support/testClient.ts'

let manager: TestClientManager | undefined
const s = serverPerSuite(() => manager?.dispose())

function open(): TestClientManager {
  manager = testClientManager(s.t)
  return manager
}

/** Every state the connection passes into, in order, from now on. */
function states(connection: TestConnection): ConnectionState[] {
  const seen: ConnectionState[] = []
  let last = connection.state
  connection.subscribe(() => {
    if (connection.state !== last) seen.push((last = connection.state))
  })
  return seen
}

/** Resolves as soon as the connection enters `state` (synchronously with the change). */
function entered(connection: TestConnection, state: ConnectionState): Promise<void> {
  return new Promise((resolve) => {
    const stop = connection.subscribe(() => {
      if (connection.state !== state) return
      stop()
      resolve()
    })
  })
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

const gone = (clientid: string) => waitFor(async () => (await s.api.get(`/clients/${clientid}`)).status === 404, `${clientid} to be forgotten`)

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

afterEach(async () => {
  await s.api.delete('/banned')
})

describe('connecting the test client over WebSocket', () => {
  for (const [protocol, protoVer] of [['v3.1', 3], ['v3.1.1', 4], ['v5', 5]] as const) {
    it(`connects with ${protocol}: Connecting then Connected, the broker lists it with proto_ver ${protoVer}, and a disconnect makes it forget the client`, async () => {
      const m = open()
      const runner = await testClientRunner(s.t, m)
      const connection = m.resolve()
      const seen = states(connection)
      const clientid = `tc-${protoVer}`
      const result = await runner.ok('testclient.connect', { clientid, protocol })
      expect(result).toEqual({ connection: 'default', clientid })
      expect(seen).toEqual(['connecting', 'connected'])
      expect(connection.snapshot().connectedAt).toBeTypeOf('number')
      expect(runner.log.last()?.message).toBe(`default connected as ${clientid}`)

      const listed = await s.api.get(`/clients/${clientid}`)
      expect(listed.status).toBe(200)
      expect(listed.body).toMatchObject({ clientid, proto_ver: protoVer, connected: true, clean_start: true, keepalive: 60 })

      await runner.ok('testclient.disconnect')
      expect(seen).toEqual(['connecting', 'connected', 'disconnecting', 'disconnected'])
      expect(connection.snapshot().connectedAt).toBeUndefined()
      expect(connection.snapshot().reason).toBeUndefined()
      await gone(clientid)
    })
  }

  it('sends the MQTT 5 connect settings the broker shows: receive maximum caps the inflight window, session expiry, keep alive, username', async () => {
    const m = open()
    m.update('default', {
      clientId: 'tc-props',
      username: 'tester',
      keepalive: 30,
      receiveMaximum: 5,
      sessionExpiryInterval: 120,
      userProperties: [['site', 'lab'], ['site', 'hall'], ['rack', '7']],
    })
    await m.resolve().connect()
    const { body } = await s.api.get('/clients/tc-props')
    expect(body).toMatchObject({ username: 'tester', keepalive: 30, inflight_max: 5, expiry_interval: 120, is_persistent: true, proto_ver: 5 })
    await m.resolve().disconnect()
    // The session outlives the connection for its expiry interval: the broker keeps it, disconnected.
    expect((await s.api.get('/clients/tc-props')).body.connected).toBe(false)
    expect((await s.api.delete('/clients/tc-props')).status).toBe(204)
  })

  it('reconnects with clean start off to the session the broker kept, with its subscriptions', async () => {
    const m = open()
    m.update('default', { clientId: 'tc-session', clean: false, sessionExpiryInterval: 300 })
    const connection = m.resolve()
    await connection.connect()
    await connection.subscribeTopic({ topic: 'kept/#', qos: 1 })
    await connection.disconnect()
    await connection.connect()
    // The broker answered Session Present: the subscription list is the one it still holds.
    expect(connection.snapshot().subscriptions.map((sub) => sub.topic)).toEqual(['kept/#'])
    const { body } = await s.api.get('/clients/tc-session/subscriptions')
    expect(body.map((row: { topic: string }) => row.topic)).toEqual(['kept/#'])
    await connection.disconnect()
    expect((await s.api.delete('/clients/tc-session')).status).toBe(204)
  })
})

describe("the broker's reason codes", () => {
  it('refuses a banned client id on MQTT 5 with CONNACK 0x8A: the connect fails with "Banned (0x8A)" and the state is Disconnected', async () => {
    expect((await s.api.post('/banned', { as: 'clientid', who: 'tc-banned' })).status).toBe(200)
    const m = open()
    const connection = m.resolve()
    m.update('default', { clientId: 'tc-banned', protocolVersion: 5 })
    const seen = states(connection)
    const error = await rejection(connection.connect())
    expect(error).toBeInstanceOf(CommandError)
    expect((error as CommandError).text).toEqual({ key: 'mqttReason.rc_8a', values: { code: '0x8A' } })
    expect(connection.snapshot().reason).toEqual({ key: 'mqttReason.rc_8a', values: { code: '0x8A' } })
    expect(errorMessage(error, t)).toBe('Banned (0x8A)')
    expect(errorMessage(error, tZh)).toBe('已被封禁（0x8A）')
    // A refused CONNACK is final: no reconnect attempt follows.
    expect(seen).toEqual(['connecting', 'disconnected'])

    const runner = await testClientRunner(s.t, m)
    expect(await runner.failure('testclient.connect', { clientid: 'tc-banned' })).toBe('Banned (0x8A)')
    expect(runner.log.last()).toMatchObject({ source: 'testclient.connect', status: 'error', message: 'Banned (0x8A)' })
    expect(connection.state).toBe('disconnected')
  })

  it('refuses a banned client id on MQTT 3.1.1 with CONNACK return code 5, read as "not authorized"', async () => {
    expect((await s.api.post('/banned', { as: 'clientid', who: 'tc-banned3' })).status).toBe(200)
    const m = open()
    const runner = await testClientRunner(s.t, m)
    expect(await runner.failure('testclient.connect', { clientid: 'tc-banned3', protocol: 'v3.1.1' })).toBe(
      'Connection refused: not authorized (5)',
    )
    expect(m.resolve().snapshot().reason).toEqual({ key: 'mqttReason.v3_5' })
    expect(m.resolve().state).toBe('disconnected')
    // MQTT 3.1 reads the same return code the same way.
    expect(await runner.failure('testclient.connect', { protocol: 'v3.1' })).toBe('Connection refused: not authorized (5)')
  })

  it('shows the DISCONNECT 0x98 "Administrative action" an MQTT 5 connection gets when the operator kicks it', async () => {
    const m = open()
    const connection = m.resolve()
    m.update('default', { clientId: 'tc-kicked', protocolVersion: 5 })
    await connection.connect()
    const seen = states(connection)
    expect((await s.api.delete('/clients/tc-kicked')).status).toBe(204)
    await waitFor(() => connection.state === 'disconnected', 'the kicked connection to close')
    expect(seen).toEqual(['disconnected'])
    expect(connection.snapshot().reason).toEqual({ key: 'mqttReason.rc_98', values: { code: '0x98' } })
    expect(t('mqttReason.rc_98', { code: '0x98' })).toBe('Administrative action (0x98)')
    const runner = await testClientRunner(s.t, m)
    expect(await runner.failure('testclient.publish', { topic: 't/1', payload: 'x' })).toBe('Client not connected')
  })

  it('closes an MQTT 3.1.1 connection on a kick without a reason (MQTT 3 has no DISCONNECT from the broker)', async () => {
    const m = open()
    const connection = m.resolve()
    m.update('default', { clientId: 'tc-kicked3', protocolVersion: 4 })
    await connection.connect()
    expect((await s.api.delete('/clients/tc-kicked3')).status).toBe(204)
    await waitFor(() => connection.state === 'disconnected', 'the kicked connection to close')
    expect(connection.snapshot().reason).toBeUndefined()
  })

  it('marks a connection whose client id is taken over by another client with 0x8E "Session taken over"', async () => {
    const m = open()
    const connection = m.resolve()
    m.update('default', { clientId: 'tc-taken', protocolVersion: 5 })
    await connection.connect()
    const other = await s.t.connect({ clientId: 'tc-taken', protocolVersion: 5, transport: 'ws' })
    await waitFor(() => connection.state === 'disconnected', 'the old connection to close')
    expect(errorMessage(new CommandError(connection.snapshot().reason!), t)).toBe('Session taken over (0x8E)')
    await other.endAsync()
  })
})

describe('connections that cannot be made', () => {
  it('fails to connect to a closed port with the transport error and ends Disconnected', async () => {
    const m = open()
    m.update('default', { port: await closedPort() })
    const connection = m.resolve()
    const seen = states(connection)
    const error = await rejection(connection.connect())
    expect(errorMessage(error, t)).toMatch(/^Connection error: .*ECONNREFUSED/)
    expect(seen).toEqual(['connecting', 'disconnected'])
  })

  it('keeps a connection attempt in Reconnecting when reconnect is on, until the operator cancels it', async () => {
    const m = open()
    m.update('default', { port: await closedPort(), reconnect: true, reconnectPeriod: 1 })
    const connection = m.resolve()
    const seen = states(connection)
    const error = await rejection(connection.connect())
    expect(errorMessage(error, t)).toMatch(/^Connection error: /)
    await waitFor(() => connection.state === 'reconnecting', 'a reconnect attempt')
    const runner = await testClientRunner(s.t, m)
    await runner.ok('testclient.cancel')
    expect(connection.state).toBe('disconnected')
    expect(seen.slice(0, 2)).toEqual(['connecting', 'reconnecting'])
    expect(seen.at(-1)).toBe('disconnected')
  })

  it('cancels a connection attempt while Connecting: the connect command fails with "Connection cancelled"', async () => {
    const m = open()
    const runner = await testClientRunner(s.t, m)
    const connection = m.resolve()
    const started = entered(connection, 'connecting')
    const connecting = runner.run('testclient.connect', { clientid: 'tc-cancelled' })
    // The cancel runs before the WebSocket could open: the attempt never reaches CONNACK.
    await started
    await runner.ok('testclient.cancel')
    const result = await connecting
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error.kind === 'failed' && result.error.message).toBe('Connection cancelled')
    expect(connection.state).toBe('disconnected')
    // A cancelled connection can connect again.
    await runner.ok('testclient.connect', { clientid: 'tc-cancelled' })
    expect(connection.state).toBe('connected')
  })

  it('refuses a second connect while one is under way', async () => {
    const m = open()
    const connection = m.resolve()
    const first = connection.connect()
    const error = await rejection(connection.connect())
    expect(errorMessage(error, t)).toBe('The connection is busy: wait, or cancel it first')
    await first
    expect(connection.state).toBe('connected')
  })
})
