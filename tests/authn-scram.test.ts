// scram + built_in_database through MQTT 5 enhanced authentication with real mqtt.js clients: the
// CONNECT carries the client-first message, the broker answers AUTH (0x18), the client's AUTH the
// proof, and the CONNACK the server's signature, checked here by a SCRAM client written from RFC 5802.
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'
import type { IConnackPacket, MqttClient } from 'mqtt'
import { afterEach, describe, expect, it } from 'vitest'
import { connackCode } from './support/authn.ts'
import { connectPacket, destroyRawClients, rawClient, serverPerSuite, subackCodes } from './support/server.ts'

const SCRAM = 'scram:built_in_database'
type Alg = 'sha256' | 'sha512'

/** The client side of SCRAM: the first message, then the final message from the server's first. */
function scramClient(alg: Alg, user: string, password: string) {
  const nonce = randomBytes(12).toString('base64')
  const clientFirstBare = `n=${user},r=${nonce}`
  let authMessage = ''
  let serverKey = Buffer.alloc(0)
  return {
    first: Buffer.from(`n,,${clientFirstBare}`),
    final(serverFirst: string): Buffer {
      const attrs = Object.fromEntries(serverFirst.split(',').map((p) => [p[0], p.slice(2)]))
      const salted = pbkdf2Sync(password, Buffer.from(attrs.s, 'base64'), Number(attrs.i), alg === 'sha256' ? 32 : 64, alg)
      const clientKey = createHmac(alg, salted).update('Client Key').digest()
      const storedKey = createHash(alg).update(clientKey).digest()
      serverKey = createHmac(alg, salted).update('Server Key').digest()
      const withoutProof = `c=biws,r=${attrs.r}`
      authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`
      const signature = createHmac(alg, storedKey).update(authMessage).digest()
      const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]))
      return Buffer.from(`${withoutProof},p=${proof.toString('base64')}`)
    },
    serverSignature: () => `v=${createHmac(alg, serverKey).update(authMessage).digest('base64')}`,
  }
}

describe('SCRAM enhanced authentication', () => {
  const suite = serverPerSuite(destroyRawClients)
  const api = () => suite.api
  afterEach(async () => {
    for (const entry of (await api().get('/authentication')).body as Array<{ id: string }>) await api().delete(`/authentication/${entry.id}`)
    suite.t.server.broker!.access.settings = { noMatch: 'allow', denyAction: 'ignore' }
  })

  /** Connects with SCRAM; resolves the client and its CONNACK, or rejects with the refusal. */
  const scramConnect = (alg: Alg, user: string, password: string, clientId = `scram-${user}`) => {
    const scram = scramClient(alg, user, password)
    const method = alg === 'sha256' ? 'SCRAM-SHA-256' : 'SCRAM-SHA-512'
    let connack: IConnackPacket | undefined
    const connected = suite.t.connect({ clientId, protocolVersion: 5, properties: { authenticationMethod: method, authenticationData: scram.first } }, (client: MqttClient) => {
      client.handleAuth = (packet, callback) => {
        const serverFirst = packet.properties?.authenticationData?.toString() ?? ''
        callback(undefined, { cmd: 'auth', reasonCode: 0x18, properties: { authenticationMethod: method, authenticationData: scram.final(serverFirst) } })
      }
      client.once('connect', (packet) => (connack = packet))
    })
    return { connected, connack: () => connack, scram }
  }

  it('lets a user in with its password, proves the server knows it, and makes a superuser', async () => {
    const created = await api().post('/authentication', { mechanism: 'scram', backend: 'built_in_database', iteration_count: 64 })
    expect(created.body).toMatchObject({ id: SCRAM, algorithm: 'sha256', iteration_count: 64, enable: true })
    await api().post(`/authentication/${SCRAM}/users`, { user_id: 'sam', password: 's3cret', is_superuser: true })
    suite.t.server.broker!.access.settings = { noMatch: 'deny', denyAction: 'ignore' }
    const attempt = scramConnect('sha256', 'sam', 's3cret')
    const client = await attempt.connected
    expect(attempt.connack()?.properties?.authenticationMethod).toBe('SCRAM-SHA-256')
    expect(attempt.connack()?.properties?.authenticationData?.toString()).toBe(attempt.scram.serverSignature())
    expect(await subackCodes(client, ['any'])).toEqual([0])
    const status = (await api().get(`/authentication/${SCRAM}/status`)).body.metrics
    // Two rounds: the first continues, the second succeeds.
    expect(status).toMatchObject({ total: 2, success: 1, failed: 0, nomatch: 0 })
  })

  it('refuses a wrong password, an unknown user and an unknown method with not_authorized', async () => {
    await api().post('/authentication', { mechanism: 'scram', backend: 'built_in_database', algorithm: 'sha512', iteration_count: 16 })
    await api().post(`/authentication/${SCRAM}/users`, { user_id: 'sam', password: 's3cret' })
    await expect(scramConnect('sha512', 'sam', 's3cret').connected).resolves.toBeDefined()
    await expect(scramConnect('sha512', 'sam', 'wrong').connected).rejects.toMatchObject({ code: 0x87 })
    await expect(scramConnect('sha512', 'nobody', 's3cret').connected).rejects.toMatchObject({ code: 0x87 })
    await expect(scramConnect('sha256', 'sam', 's3cret').connected).rejects.toMatchObject({ code: 0x87 })
    // Password clients pass SCRAM by (it ignores them) and reach the end of the chain.
    expect(await connackCode(suite.t, { clientId: 'plain', protocolVersion: 5, username: 'sam', password: 's3cret' })).toBe(0x87)
    // SCRAM users are managed like the built-in database's, but not imported.
    expect((await api().get(`/authentication/${SCRAM}/users`)).body.data).toEqual([{ user_id: 'sam', is_superuser: false }])
    expect((await api().post(`/authentication/${SCRAM}/import_users?type=plain`, [{ user_id: 'x', password: 'y' }])).body).toEqual({ code: 'BAD_REQUEST', message: 'User error: unsupported_operation' })
  })

  it('runs alongside password authentication in one chain', async () => {
    await api().post('/authentication', { mechanism: 'password_based', backend: 'built_in_database' })
    await api().post('/authentication', { mechanism: 'scram', backend: 'built_in_database', iteration_count: 8 })
    await api().post('/authentication/password_based:built_in_database/users', { user_id: 'pat', password: 'pw' })
    await api().post(`/authentication/${SCRAM}/users`, { user_id: 'sam', password: 'pw' })
    expect(await connackCode(suite.t, { clientId: 'pat', protocolVersion: 5, username: 'pat', password: 'pw' })).toBe(0)
    await expect(scramConnect('sha256', 'sam', 'pw').connected).resolves.toBeDefined()
  })

  it('refuses an AUTH with another method with 0x8C, and anything but AUTH or DISCONNECT during the exchange is a protocol error', async () => {
    await api().post('/authentication', { mechanism: 'scram', backend: 'built_in_database', iteration_count: 8 })
    await api().post(`/authentication/${SCRAM}/users`, { user_id: 'sam', password: 'pw' })
    const first = scramClient('sha256', 'sam', 'pw').first
    const connect = connectPacket({ protocolVersion: 5, clientId: 'raw-scram', properties: { authenticationMethod: 'SCRAM-SHA-256', authenticationData: first } })

    const other = rawClient(suite.t.server.mqttPort, 5)
    other.send(connect)
    expect(await other.next('auth')).toMatchObject({ reasonCode: 0x18, properties: { authenticationMethod: 'SCRAM-SHA-256' } })
    other.send({ cmd: 'auth', reasonCode: 0x18, properties: { authenticationMethod: 'SCRAM-SHA-1', authenticationData: Buffer.from('x') } })
    expect(await other.next('connack')).toMatchObject({ reasonCode: 0x8c })
    await other.closed

    const early = rawClient(suite.t.server.mqttPort, 5)
    early.send(connect)
    await early.next('auth')
    early.send({ cmd: 'publish', topic: 't', payload: Buffer.from('x'), qos: 0, retain: false, dup: false })
    await early.closed
    expect(early.packets.map((p) => p.cmd)).toEqual(['auth', 'connack'])
    expect(early.packets[1]).toMatchObject({ reasonCode: 0x82 })
  })
})
