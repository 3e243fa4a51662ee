// TLS listeners (ssl, wss) made from PEM pasted into the API, with a CA, a server and a client
// certificate made by openssl for the test: real mqtt.js clients connect with a client certificate
// (verify_peer, fail_if_no_peer_cert), are refused without one or with a stranger's, and the
// certificate names the client (peer_cert_as_clientid / _username). A bad PEM changes nothing.
import { createHash, X509Certificate } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { connect as netConnect } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { generate } from 'mqtt-packet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCertificates, type TestCertificates } from './support/certs.ts'
import { connectMqtt, connectPacket, serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()
let certs: TestCertificates
beforeAll(() => {
  certs = makeCertificates('device-42')
})
afterAll(async () => {
  await suite.api.request('PUT', '/configs/mqtt', { peer_cert_as_clientid: 'disabled', peer_cert_as_username: 'disabled' })
  certs.remove()
})

const portOf = (bind: string) => Number(bind.split(':').pop())

describe('TLS listeners', () => {
  it('ssl: pasted PEM is stored as files, a client with its certificate connects, one without or with a stranger is refused', async () => {
    const created = await suite.api.post('/listeners', {
      type: 'ssl',
      name: 'secure',
      bind: '127.0.0.1:0',
      ssl_options: { certfile: certs.serverCert, keyfile: certs.serverKey, cacertfile: certs.ca, verify: 'verify_peer', fail_if_no_peer_cert: true },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const ssl = created.body.ssl_options
    expect(ssl.certfile).toMatch(/certs\/listeners\/ssl\/secure\/cert-[0-9A-F]{16}$/)
    expect(ssl.keyfile).toMatch(/\/key-[0-9A-F]{16}$/)
    expect(readFileSync(ssl.cacertfile, 'utf8')).toBe(certs.ca)
    expect(ssl).toMatchObject({ verify: 'verify_peer', fail_if_no_peer_cert: true, versions: ['tlsv1.3', 'tlsv1.2'] })
    const url = `mqtts://127.0.0.1:${portOf(created.body.bind)}`

    await connectMqtt(url, { clientId: 'with-cert', ca: certs.ca, cert: certs.clientCert, key: certs.clientKey, servername: 'localhost' })
    expect((await suite.api.get('/clients/with-cert')).body.listener).toBe('ssl:secure')
    await expect(connectMqtt(url, { clientId: 'no-cert', ca: certs.ca, servername: 'localhost' })).rejects.toThrow()
    // A key that does not match, sent on update: 400, and the listener goes on as it was.
    const badUpdate = await suite.api.request('PUT', '/listeners/ssl:secure', { type: 'ssl', id: 'ssl:secure', ssl_options: { keyfile: certs.clientKey } })
    expect(badUpdate.status).toBe(400)
    expect((await suite.api.get('/listeners/ssl:secure')).body.ssl_options.keyfile).toBe(ssl.keyfile)
    expect((await suite.api.get('/clients/with-cert')).status).toBe(200)
    await expect(connectMqtt(url, { clientId: 'stranger', ca: certs.ca, cert: certs.strangerCert, key: certs.strangerKey, servername: 'localhost' })).rejects.toThrow()
  })

  it('peer_cert_as_clientid cn and peer_cert_as_username dn name the client from its certificate on CONNECT', async () => {
    const zone = await suite.api.request('PUT', '/configs/mqtt', { peer_cert_as_clientid: 'cn', peer_cert_as_username: 'dn' })
    expect(zone.status).toBe(200)
    const { port } = await listenerPort('secure')
    const client = await connectMqtt(`mqtts://127.0.0.1:${port}`, { clientId: 'ignored', ca: certs.ca, cert: certs.clientCert, key: certs.clientKey, servername: 'localhost' })
    const row = (await suite.api.get('/clients/device-42')).body
    expect(row).toMatchObject({ clientid: 'device-42', username: 'O=EMQX Console,CN=device-42' })
    await client.endAsync()
    await suite.api.request('PUT', '/configs/mqtt', { peer_cert_as_clientid: 'md5', peer_cert_as_username: 'disabled' })
    await connectMqtt(`mqtts://127.0.0.1:${port}`, { clientId: 'ignored', ca: certs.ca, cert: certs.clientCert, key: certs.clientKey, servername: 'localhost' })
    const md5 = createHash('md5').update(new X509Certificate(certs.clientCert).raw).digest('hex')
    expect((await suite.api.get(`/clients/${md5}`)).status).toBe(200)
  })

  it('wss: MQTT over WebSocket over TLS', async () => {
    const created = await suite.api.post('/listeners', {
      type: 'wss',
      name: 'secure',
      bind: '127.0.0.1:0',
      ssl_options: { certfile: certs.serverCert, keyfile: certs.serverKey },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    await connectMqtt(`wss://127.0.0.1:${portOf(created.body.bind)}/mqtt`, { clientId: 'over-wss', ca: certs.ca, servername: 'localhost' })
    expect((await suite.api.get('/clients/over-wss')).body.listener).toBe('wss:secure')
  })

  it('ssl behind a load balancer: the PROXY header comes before the TLS handshake, and its address is the client\'s', async () => {
    const created = await suite.api.post('/listeners', {
      type: 'ssl',
      name: 'proxied',
      bind: '127.0.0.1:0',
      proxy_protocol: true,
      ssl_options: { certfile: certs.serverCert, keyfile: certs.serverKey },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const port = portOf(created.body.bind)
    const raw = netConnect(port, '127.0.0.1')
    raw.on('error', () => raw.destroy())
    // Written before the socket connects, the header and the ClientHello leave together: the listener
    // hands TLS the bytes after the header.
    raw.write('PROXY TCP4 203.0.113.9 127.0.0.1 50123 8883\r\n')
    const secure = tlsConnect({ socket: raw, ca: certs.ca, servername: 'localhost' })
    secure.on('error', () => secure.destroy())
    await new Promise((resolve) => secure.once('secureConnect', resolve))
    secure.write(generate(connectPacket({ clientId: 'behind-lb' })))
    try {
      const row = await waitFor(async () => {
        const response = await suite.api.get('/clients/behind-lb')
        return response.status === 200 && response.body
      }, 'behind-lb connected')
      expect([row.ip_address, row.port, row.listener]).toEqual(['203.0.113.9', 50123, 'ssl:proxied'])
    } finally {
      secure.destroy()
    }
  })

  it('a bad PEM, a missing file, a key that does not match and fail_if_no_peer_cert without verify_peer are 400, and nothing changes', async () => {
    const before = (await suite.api.get('/listeners')).body
    const badPem = await suite.api.post('/listeners', { type: 'ssl', name: 'broken', bind: '127.0.0.1:0', ssl_options: { certfile: '-----BEGIN CERTIFICATE-----\nnot base64 !!\n-----END CERTIFICATE-----\n', keyfile: certs.serverKey } })
    expect(badPem.status).toBe(400)
    expect(badPem.body.message).toContain('ssl_options.certfile')
    const missing = await suite.api.post('/listeners', { type: 'ssl', name: 'broken', bind: '127.0.0.1:0', ssl_options: { certfile: '/nowhere/cert.pem', keyfile: certs.serverKey } })
    expect(missing.body).toMatchObject({ code: 'BAD_REQUEST' })
    expect(missing.body.message).toContain('enoent')
    const mismatched = await suite.api.post('/listeners', { type: 'ssl', name: 'broken', bind: '127.0.0.1:0', ssl_options: { certfile: certs.serverCert, keyfile: certs.clientKey } })
    expect(mismatched.status).toBe(400)
    expect(mismatched.body.message).toMatch(/^\{failed_to_start,"ssl:broken/)
    const verify = await suite.api.post('/listeners', { type: 'ssl', name: 'broken', bind: '127.0.0.1:0', ssl_options: { certfile: certs.serverCert, keyfile: certs.serverKey, fail_if_no_peer_cert: true } })
    expect(verify.body.message).toContain('verify must be verify_peer when fail_if_no_peer_cert is true')
    expect((await suite.api.get('/listeners')).body).toEqual(before)
    // A value refused before writing leaves no file (EMQX too writes pasted PEM before it starts the listener).
    expect(existsSync(`${suite.t.dataDir}/certs/listeners/ssl/broken/cert-`)).toBe(false)
  })
})

async function listenerPort(name: string): Promise<{ port: number }> {
  const body = (await suite.api.get(`/listeners/ssl:${name}`)).body
  return { port: portOf(body.bind) }
}
