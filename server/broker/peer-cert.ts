// MQTT settings `peer_cert_as_clientid` and `peer_cert_as_username`, applied on CONNECT over TLS as
// emqx_channel's set_peercert_infos: the client certificate's common name (cn), its subject (dn),
// the certificate itself (crt: the DER bytes), base64 of the DER (pem), or its MD5 in hex (md5).
import { createHash } from 'node:crypto'
import type { Socket } from 'node:net'
import { TLSSocket } from 'node:tls'

export type PeerCertAs = 'disabled' | 'cn' | 'dn' | 'crt' | 'pem' | 'md5'

/** The client's certificate on a TLS socket (ssl, wss), or undefined (none sent, or no TLS). */
function peerCertificate(socket: Socket): { der: Buffer; cn: string | undefined; dn: string } | undefined {
  if (!(socket instanceof TLSSocket)) return undefined
  const x509 = socket.getPeerX509Certificate()
  if (!x509) return undefined
  const parts = x509.subject.split('\n').filter(Boolean)
  const cn = parts.find((part) => part.startsWith('CN='))?.slice(3)
  return { der: x509.raw, cn, dn: parts.join(',') }
}

/** What the certificate gives for a setting; undefined when disabled or there is no certificate. */
export function fromPeerCert(socket: Socket, as: PeerCertAs): string | undefined {
  if (as === 'disabled') return undefined
  const cert = peerCertificate(socket)
  if (!cert) return undefined
  switch (as) {
    case 'cn':
      return cert.cn
    case 'dn':
      return cert.dn
    case 'crt':
      return cert.der.toString('latin1')
    case 'pem':
      return cert.der.toString('base64')
    case 'md5':
      return createHash('md5').update(cert.der).digest('hex')
  }
}
