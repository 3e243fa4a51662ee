// The listener form's pieces that need no browser: which fields a type shows, the edit form's
// starting values, and reading an uploaded certificate file (DER becomes PEM; 'Upload Failed' when
// it is neither).
import { createPrivateKey, X509Certificate } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { makeCertificates } from './support/certs.ts'
import { editValues, fieldsOfType, hiddenFields, readPemFile } from '../src/features/listeners/listenerFields.ts'

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'

describe('the listener form', () => {
  it('shows each type its sections: TCP options for all but quic, WebSocket for ws and wss, TLS for ssl and wss', () => {
    expect(fieldsOfType('tcp')).toContain('nodelay')
    expect(fieldsOfType('tcp')).not.toContain('mqtt_path')
    expect(fieldsOfType('ws')).toContain('mqtt_path')
    expect(fieldsOfType('wss')).toEqual(expect.arrayContaining(['mqtt_path', 'verify', 'fail_if_no_peer_cert']))
    expect(fieldsOfType('quic')).not.toContain('proxy_protocol')
    expect(hiddenFields('tcp', ['type'])).toEqual(expect.arrayContaining(['type', 'mqtt_path', 'certfile', 'verify']))
  })

  it('fills the edit form with the settings in force', () => {
    expect(
      editValues({ id: 'ws:x', type: 'ws', bind: '0.0.0.0:8083', max_connections: 'infinity', enable_authn: 'quick_deny_anonymous', tcp_options: { nodelay: true }, websocket: { mqtt_path: '/mqtt' } }),
    ).toMatchObject({ id: 'ws:x', bind: '0.0.0.0:8083', max_connections: 'infinity', enable_authn: 'quick_deny_anonymous', nodelay: 'true', mqtt_path: '/mqtt', max_conn_rate: '' })
  })

  it('takes PEM from crt, key, pem, cer files; another type, or a binary file, fails', async () => {
    expect(await readPemFile(new File([PEM], 'server.crt'))).toBe(PEM)
    expect(await readPemFile(new File([PEM], 'server.PEM'))).toBe(PEM)
    expect(await readPemFile(new File([PEM], 'server.txt'))).toBeUndefined()
    expect(await readPemFile(new File([new Uint8Array([0x30, 0x82, 0x01, 0x0a])], 'server.der'))).toBeUndefined()
  })

  it('turns a DER certificate and a DER (PKCS #8) key into the PEM a listener takes; a JKS or PFX store fails', async () => {
    const certs = makeCertificates('der-client')
    try {
      const cert = new X509Certificate(certs.serverCert)
      const der = new Uint8Array(cert.raw)
      for (const name of ['server.der', 'server.cer', 'server.crt']) {
        const pem = await readPemFile(new File([der], name), 'certfile')
        expect(new X509Certificate(pem!).fingerprint256).toBe(cert.fingerprint256)
      }
      const key = createPrivateKey(certs.serverKey)
      const keyPem = await readPemFile(new File([new Uint8Array(key.export({ type: 'pkcs8', format: 'der' }))], 'server.key'), 'keyfile')
      expect(createPrivateKey(keyPem!).export({ type: 'pkcs8', format: 'pem' })).toBe(key.export({ type: 'pkcs8', format: 'pem' }))
      expect(await readPemFile(new File([der], 'store.pfx'), 'certfile')).toBeUndefined()
      expect(await readPemFile(new File([der], 'store.jks'), 'certfile')).toBeUndefined()
    } finally {
      certs.remove()
    }
  })
})
