// A connector's client `ssl` options (EMQX's client_ssl_opts_schema) as Node's TLS options. The
// certificate fields take a file path or the PEM text itself, as EMQX's file-or-content fields do.
// EMQX's client default is `verify_none`; `server_name_indication: disable` sends no SNI.
import { readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import type { ConnectionOptions } from 'node:tls'
import { isPem } from '../../areas/listeners/certs.ts'

export interface ClientSsl {
  enable: boolean
  verify: 'verify_peer' | 'verify_none'
  cacertfile?: string
  certfile?: string
  keyfile?: string
  password?: string
  server_name_indication?: string
  versions?: string[]
  ciphers?: string[]
}

const VERSIONS: Record<string, ConnectionOptions['minVersion']> = { 'tlsv1.3': 'TLSv1.3', 'tlsv1.2': 'TLSv1.2', 'tlsv1.1': 'TLSv1.1', tlsv1: 'TLSv1' }
const ORDER = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']

const text = (value: unknown, field: string): string | undefined => {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value !== 'string') throw new Error(`ssl.${field} must be a string`)
  return value
}

const list = (value: unknown, field: string): string[] | undefined => {
  if (value === undefined) return undefined
  const items = typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value
  if (!Array.isArray(items) || !items.every((s) => typeof s === 'string')) throw new Error(`ssl.${field} must be a list of strings`)
  return items
}

/** Checks and completes a connector's `ssl` object; throws the 400 message. */
export function parseClientSsl(raw: unknown): ClientSsl {
  if (raw === undefined || raw === null) return { enable: false, verify: 'verify_none' }
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new Error('ssl must be an object')
  const ssl = raw as Record<string, unknown>
  if (ssl.enable !== undefined && typeof ssl.enable !== 'boolean') throw new Error('ssl.enable must be true or false')
  const verify = ssl.verify ?? 'verify_none'
  if (verify !== 'verify_peer' && verify !== 'verify_none') throw new Error('ssl.verify must be verify_peer or verify_none')
  const versions = list(ssl.versions, 'versions')
  const unknown = versions?.find((v) => !VERSIONS[v])
  if (unknown) throw new Error(`ssl.versions: unsupported TLS version ${unknown}`)
  return {
    enable: ssl.enable === true,
    verify,
    cacertfile: text(ssl.cacertfile, 'cacertfile'),
    certfile: text(ssl.certfile, 'certfile'),
    keyfile: text(ssl.keyfile, 'keyfile'),
    password: text(ssl.password, 'password'),
    server_name_indication: text(ssl.server_name_indication, 'server_name_indication'),
    versions,
    ciphers: list(ssl.ciphers, 'ciphers'),
  }
}

function pem(value: string | undefined, field: string): Buffer | undefined {
  if (value === undefined) return undefined
  if (value.includes('-----BEGIN')) {
    if (!isPem(value)) throw new Error(`ssl.${field}: invalid PEM`)
    return Buffer.from(value)
  }
  try {
    return readFileSync(value)
  } catch {
    throw new Error(`ssl.${field}: cannot read file ${value}`)
  }
}

/** Node's TLS options for a connection to `host`; reads the certificate files. */
export function clientTlsOptions(ssl: ClientSsl, host: string): ConnectionOptions {
  const verify = ssl.verify === 'verify_peer'
  const options: ConnectionOptions = {
    rejectUnauthorized: verify,
    ca: pem(ssl.cacertfile, 'cacertfile'),
    cert: pem(ssl.certfile, 'certfile'),
    key: pem(ssl.keyfile, 'keyfile'),
    passphrase: ssl.password,
  }
  const sni = ssl.server_name_indication
  // SNI names a host: an IP address is not sent (RFC 6066), as Erlang's ssl does not send it either.
  if (sni !== undefined && sni !== 'disable') options.servername = sni
  else if (sni === undefined && isIP(host) === 0) options.servername = host
  if (ssl.versions?.length) {
    const chosen = ssl.versions.map((v) => VERSIONS[v]).sort((a, b) => ORDER.indexOf(a ?? '') - ORDER.indexOf(b ?? ''))
    options.minVersion = chosen[0]
    options.maxVersion = chosen[chosen.length - 1]
  }
  if (ssl.ciphers?.length) options.ciphers = ssl.ciphers.join(':')
  return options
}
