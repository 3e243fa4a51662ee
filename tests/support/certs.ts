// A throwaway certificate authority with a server and a client certificate, made by the openssl
// command line in a temporary folder, for the TLS listener tests. Nothing is read from the repository.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TestCertificates {
  dir: string
  ca: string
  serverCert: string
  serverKey: string
  clientCert: string
  clientKey: string
  /** A client certificate signed by another CA, which the listener must refuse. */
  strangerCert: string
  strangerKey: string
  remove(): void
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
}

function signed(dir: string, name: string, subject: string, ca: string, extensions?: string): void {
  openssl(dir, 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject)
  const ext = extensions ? ['-extfile', `${name}.ext`] : []
  if (extensions) writeFileSync(join(dir, `${name}.ext`), extensions)
  openssl(dir, 'x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', ...ext)
}

export function makeCertificates(clientCn: string): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'listener-certs-'))
  for (const ca of ['ca', 'other-ca']) {
    openssl(dir, 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${ca}.key`, '-out', `${ca}.crt`, '-days', '2', '-subj', `/CN=${ca} test`)
  }
  signed(dir, 'server', '/CN=localhost', 'ca', 'subjectAltName=DNS:localhost,IP:127.0.0.1\n')
  signed(dir, 'client', `/O=EMQX Console/CN=${clientCn}`, 'ca')
  signed(dir, 'stranger', '/CN=stranger', 'other-ca')
  const read = (file: string) => readFileSync(join(dir, file), 'utf8')
  return {
    dir,
    ca: read('ca.crt'),
    serverCert: read('server.crt'),
    serverKey: read('server.key'),
    clientCert: read('client.crt'),
    clientKey: read('client.key'),
    strangerCert: read('stranger.crt'),
    strangerKey: read('stranger.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
