// The test client's connections (issue 5, SPEC 9): the default one plus at most six more, settings
// that survive a reload through the page's storage (passwords only in session storage), closing a
// tab ends its connection, and commands reach the active tab or a named one.
import { describe, expect, it } from 'vitest'
import { CommandError } from '../commands/define.ts'
import { errorMessage } from '../src/app/commands/runner.ts'
import { ACTIVE_KEY, KEPT_KEY, MAX_EXTRA_CONNECTIONS, PASSWORDS_KEY, SETTINGS_KEY, TestClientManager } from '../src/testclient/manager.ts'
import { serverPerSuite, waitFor } from './support/server.ts'
import { addConnection, memoryStorage, t, testClientManager, testClientRunner } from './support/testClient.ts'

const managers: TestClientManager[] = []
const s = serverPerSuite(() => {
  for (const m of managers.splice(0)) m.dispose()
})

const defaults = { host: 'broker.example', tls: false }

function fresh(options: Partial<ConstructorParameters<typeof TestClientManager>[0]> = {}): TestClientManager {
  const m = new TestClientManager({ defaults, schedule: (flush) => setTimeout(flush, 0), ...options })
  managers.push(m)
  return m
}

function thrown(action: () => unknown): CommandError {
  try {
    action()
  } catch (error) {
    if (error instanceof CommandError) return error
    throw error
  }
  throw new Error('expected a CommandError')
}

describe('the connection tabs', () => {
  it('starts with the default connection on the page host, port 8083, path /mqtt, MQTT 5 and a random emqx_ client id', () => {
    const m = fresh()
    expect(m.list().map((c) => c.name)).toEqual(['default'])
    expect(m.active).toBe('default')
    const settings = m.resolve().snapshot().settings
    expect(settings).toMatchObject({ host: 'broker.example', port: 8083, path: '/mqtt', tls: false, protocolVersion: 5, clean: true, keepalive: 60 })
    expect(settings.clientId).toMatch(/^emqx_[a-z0-9]{8}$/)
    const tls = fresh({ defaults: { host: 'broker.example', tls: true } })
    expect(tls.resolve().snapshot().settings).toMatchObject({ port: 8084, tls: true })
  })

  it(`opens at most ${MAX_EXTRA_CONNECTIONS} connections besides the default: the 7th new one is refused`, async () => {
    const m = fresh()
    const runner = await testClientRunner(s.t, m)
    for (let n = 0; n < MAX_EXTRA_CONNECTIONS; n++) await runner.ok('testclient.new')
    expect(m.list().map((c) => c.name)).toEqual(['default', 'conn2', 'conn3', 'conn4', 'conn5', 'conn6', 'conn7'])
    // Each new tab has its own client id and becomes the active one.
    expect(new Set(m.list().map((c) => c.snapshot().settings.clientId)).size).toBe(7)
    expect(m.active).toBe('conn7')
    expect(await runner.failure('testclient.new', { name: 'eighth' })).toBe('At most 6 connections besides the default')
    expect(thrown(() => m.add()).text).toEqual({ key: 'testClient.err.limit', values: { max: 6 } })
    expect(m.list()).toHaveLength(7)
  })

  it('refuses a name already taken and names that are not letters, digits, - and _', async () => {
    const m = fresh()
    const runner = await testClientRunner(s.t, m)
    expect(await runner.ok('testclient.new', { name: 'lab-1' })).toEqual({ connection: 'lab-1' })
    expect(await runner.failure('testclient.new', { name: 'lab-1' })).toBe('A connection named lab-1 already exists')
    expect(await runner.failure('testclient.new', { name: 'a b' })).toBe("name: Letters, digits, '-' and '_' only, starting with a letter or digit")
    expect(await runner.failure('testclient.connect', { connection: 'nope' })).toBe('No connection named nope')
  })

  it('does not close the default connection', async () => {
    const m = fresh()
    const runner = await testClientRunner(s.t, m)
    expect(await runner.failure('testclient.remove', { connection: 'default' })).toBe('The default connection cannot be closed')
    expect(m.list().map((c) => c.name)).toEqual(['default'])
  })

  it('closes a tab: its connection ends at once, the broker forgets the client, the default becomes active', async () => {
    const m = testClientManager(s.t)
    managers.push(m)
    const runner = await testClientRunner(s.t, m)
    const tab = addConnection(m, s.t, 'gone')
    await runner.ok('testclient.connect', { connection: 'gone', clientid: 'tc-removed' })
    expect((await s.api.get('/clients/tc-removed')).body.connected).toBe(true)
    await runner.ok('testclient.remove', { connection: 'gone' })
    expect(m.get('gone')).toBeUndefined()
    expect(m.active).toBe('default')
    await waitFor(async () => (await s.api.get('/clients/tc-removed')).status === 404, 'the broker to forget tc-removed')
    expect(errorMessage(await tab.publish({ topic: 't/1', payload: new Uint8Array(), qos: 0, retain: false }).catch((e: unknown) => e), t)).toBe(
      'Client not connected',
    )
  })

  it('runs commands on the active tab unless one is named, each connection with its own messages', async () => {
    const m = testClientManager(s.t)
    managers.push(m)
    const runner = await testClientRunner(s.t, m)
    addConnection(m, s.t, 'listener')
    // 'listener' is active now: connect and subscribe go to it.
    await runner.ok('testclient.connect', { clientid: 'tc-listener' })
    await runner.ok('testclient.subscribe', { topic: 't/multi/#', qos: '1' })
    await runner.ok('testclient.connect', { connection: 'default', clientid: 'tc-talker' })
    await runner.ok('testclient.publish', { connection: 'default', topic: 't/multi/1', payload: 'hi', qos: '1' })
    const listener = m.resolve('listener')
    await waitFor(() => listener.store.stats().received === 1, 'the listener to receive')
    expect(listener.store.stats()).toEqual({ received: 1, published: 0, droppedFromView: 0 })
    expect(m.resolve('default').store.stats()).toEqual({ received: 0, published: 1, droppedFromView: 0 })

    await runner.ok('testclient.clear', { connection: 'listener' })
    expect(listener.store.messages()).toEqual([])
    expect(listener.store.stats().received).toBe(1)
    await runner.ok('testclient.disconnect', { connection: 'listener' })
    expect(listener.state).toBe('disconnected')
    expect(m.resolve('default').state).toBe('connected')
  })
})

describe('saved settings', () => {
  it('restores every tab, its settings, the active tab and the kept count in a new manager (a reload)', () => {
    const storage = memoryStorage()
    const secretStorage = memoryStorage()
    const before = fresh({ storage, secretStorage })
    before.add('lab')
    const saved = before.update('lab', {
      host: '10.0.0.7',
      port: 8883,
      path: 'ws',
      clientId: 'lab-client',
      username: 'operator',
      password: 's3cret-pw',
      protocolVersion: 4,
      keepalive: 15,
      clean: false,
      sessionExpiryInterval: 'never',
      reconnect: true,
      userProperties: [['site', 'lab']],
      will: { enabled: true, topic: 'w/lab', payload: 'bye', encoding: 'plaintext', qos: 1, retain: true },
    })
    before.setKeptMessages(500)
    const defaultId = before.resolve('default').snapshot().settings.clientId

    const after = fresh({ storage, secretStorage })
    expect(after.list().map((c) => c.name)).toEqual(['default', 'lab'])
    expect(after.active).toBe('lab')
    expect(after.resolve('lab').snapshot().settings).toEqual(saved)
    expect(after.resolve('default').snapshot().settings.clientId).toBe(defaultId)
    expect(after.keptMessages).toBe(500)
    expect(after.resolve('lab').store.capacity).toBe(500)
  })

  it('keeps the password in the secret (session) storage only, never in the settings storage', () => {
    const storage = memoryStorage()
    const secretStorage = memoryStorage()
    const m = fresh({ storage, secretStorage })
    m.update('default', { username: 'operator', password: 'never-in-local-storage' })
    const settingsText = [...storage.data.values()].join('\n')
    expect(settingsText).toContain('operator')
    expect(settingsText).not.toContain('never-in-local-storage')
    expect(JSON.parse(storage.data.get(SETTINGS_KEY)!)[0]).not.toHaveProperty('password')
    expect(JSON.parse(secretStorage.data.get(PASSWORDS_KEY)!)).toEqual({ default: 'never-in-local-storage' })
    expect([...storage.data.keys()].sort()).toEqual([ACTIVE_KEY, SETTINGS_KEY].sort())

    // A new tab (new session storage) has the settings but not the password.
    const otherTab = fresh({ storage, secretStorage: memoryStorage() })
    expect(otherTab.resolve().snapshot().settings).toMatchObject({ username: 'operator', password: '' })
    // Clearing the password removes it from the secret storage too.
    m.update('default', { password: '' })
    expect(JSON.parse(secretStorage.data.get(PASSWORDS_KEY)!)).toEqual({})
  })

  it('forgets a closed tab and starts from defaults when the saved value is damaged', () => {
    const storage = memoryStorage()
    const m = fresh({ storage })
    m.add('temp')
    m.remove('temp')
    expect(fresh({ storage }).list().map((c) => c.name)).toEqual(['default'])
    expect(JSON.parse(storage.data.get(ACTIVE_KEY)!)).toBe('default')

    storage.data.set(SETTINGS_KEY, '{not json')
    storage.data.set(KEPT_KEY, 'x')
    const restored = fresh({ storage })
    expect(restored.list().map((c) => c.name)).toEqual(['default'])
    expect(restored.keptMessages).toBe(10_000)
  })
})
