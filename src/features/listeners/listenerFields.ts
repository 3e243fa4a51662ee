// Which of listener.create's and listener.update's fields a listener type has, in the order of its
// form's sections (general, TCP options, WebSocket, TLS), and the starting values of an edit form.
import type { ListenerDetail } from '../../api/listeners.ts'
import type { FormValues } from '../../ui/SchemaForm.tsx'

const GENERAL = ['bind', 'max_connections', 'max_conn_rate', 'mountpoint', 'enable_authn']
const TCP = ['proxy_protocol', 'nodelay', 'backlog']
const WEBSOCKET = ['mqtt_path', 'fail_if_no_subprotocol']
/** Shown by TlsFields (text areas with an upload), not by the generated form. */
export const PEM_FIELDS = ['certfile', 'keyfile', 'cacertfile'] as const
const TLS = ['verify', 'fail_if_no_peer_cert']

/** The fields a type's form shows; quic has the general ones only. */
export function fieldsOfType(type: string): string[] {
  if (type === 'quic') return GENERAL
  return [...GENERAL, ...TCP, ...(type === 'ws' || type === 'wss' ? WEBSOCKET : []), ...(type === 'ssl' || type === 'wss' ? TLS : [])]
}

export const ALL_FIELDS = [...GENERAL, ...TCP, ...WEBSOCKET, ...PEM_FIELDS, ...TLS]

/** True for the TLS types, whose form has the certificate section. */
export const hasTls = (type: string) => type === 'ssl' || type === 'wss'

/** The form's fields the type lacks: given (empty) and not shown. */
export function hiddenFields(type: string, always: readonly string[]): string[] {
  const shown = fieldsOfType(type)
  return [...always, ...ALL_FIELDS.filter((name) => !shown.includes(name))]
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value))

/** An edit form filled with the configuration in force (the certificate files stay as they are unless replaced). */
export function editValues(detail: ListenerDetail): FormValues {
  const tcp = detail.tcp_options ?? {}
  const ws = detail.websocket ?? {}
  const ssl = detail.ssl_options ?? {}
  return {
    id: detail.id,
    bind: text(detail.bind),
    max_connections: text(detail.max_connections),
    max_conn_rate: text(detail.max_conn_rate),
    mountpoint: text(detail.mountpoint),
    enable_authn: text(detail.enable_authn),
    proxy_protocol: text(detail.proxy_protocol),
    nodelay: text(tcp.nodelay),
    backlog: text(tcp.backlog),
    mqtt_path: text(ws.mqtt_path),
    fail_if_no_subprotocol: text(ws.fail_if_no_subprotocol),
    verify: text(ssl.verify),
    fail_if_no_peer_cert: text(ssl.fail_if_no_peer_cert),
  }
}

/** The certificate file types EMQX's dashboard takes (SPEC 5). */
export const CERT_EXTENSIONS = ['crt', 'key', 'pem', 'jks', 'der', 'cer', 'pfx']

/**
 * The file as PEM text: a PEM file as it is, a DER one (der, cer, crt, key: binary ASN.1, which
 * starts with a SEQUENCE) wrapped as a certificate, or for the key field as a PKCS #8 private key;
 * undefined when it cannot be used (a JKS or PKCS #12 store, anything else).
 */
export async function readPemFile(file: File, field: (typeof PEM_FIELDS)[number] = 'certfile'): Promise<string | undefined> {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? ''
  if (!CERT_EXTENSIONS.includes(extension)) return undefined
  try {
    const bytes = new Uint8Array(await file.arrayBuffer())
    const content = new TextDecoder().decode(bytes)
    if (content.includes('-----BEGIN')) return content
    if (['jks', 'pfx'].includes(extension) || bytes[0] !== 0x30 || bytes.length < 64) return undefined
    const label = field === 'keyfile' ? 'PRIVATE KEY' : 'CERTIFICATE'
    let binary = ''
    for (const byte of bytes) binary += String.fromCharCode(byte)
    const lines = btoa(binary).match(/.{1,64}/g) ?? []
    return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`
  } catch {
    return undefined
  }
}

