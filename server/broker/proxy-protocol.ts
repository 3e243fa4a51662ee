// The PROXY protocol header (HAProxy's, v1 text or v2 binary) a load balancer puts before the
// client's bytes: read off the socket before anything else sees it, within the listener's
// `proxy_protocol_timeout`; the source address it names becomes the client's address.
import type { Socket } from 'node:net'
import { IPv4ProxyAddress, IPv6ProxyAddress, V1ProxyProtocol, V2ProxyProtocol } from 'proxy-protocol-js'

const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a])
const V1_MAX = 107

export interface ProxiedPeer {
  peerhost: string
  peerport: number
}

/** The header's length once `bytes` hold it whole, 0 while more must come, -1 when it is no header. */
function headerLength(bytes: Buffer): number {
  if (bytes.length >= 1 && bytes[0] === 0x0d) {
    if (bytes.length < 16) return V2_SIGNATURE.subarray(0, bytes.length).equals(bytes.subarray(0, V2_SIGNATURE.length)) ? 0 : -1
    if (!bytes.subarray(0, 12).equals(V2_SIGNATURE)) return -1
    return 16 + bytes.readUInt16BE(14)
  }
  const prefix = 'PROXY '.slice(0, Math.min(6, bytes.length))
  if (bytes.subarray(0, prefix.length).toString('latin1') !== prefix) return -1
  const end = bytes.indexOf('\r\n')
  if (end >= 0) return end + 2
  return bytes.length > V1_MAX ? -1 : 0
}

const ipv6 = (bytes: readonly number[]) => {
  const groups: string[] = []
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16))
  return groups.join(':')
}

/** The source the header names; undefined for a LOCAL or UNKNOWN header (the socket's own address stands). */
function sourceOf(header: Buffer): ProxiedPeer | undefined {
  if (header[0] === 0x0d) {
    const address = V2ProxyProtocol.parse(new Uint8Array(header)).proxyAddress
    if (address instanceof IPv4ProxyAddress) return { peerhost: address.sourceAddress.address.join('.'), peerport: address.sourcePort }
    if (address instanceof IPv6ProxyAddress) return { peerhost: ipv6(address.sourceAddress.address), peerport: address.sourcePort }
    return undefined
  }
  const text = header.toString('latin1')
  if (text.startsWith('PROXY UNKNOWN')) return undefined
  const parsed = V1ProxyProtocol.parse(text)
  return { peerhost: parsed.source.ipAddress, peerport: parsed.source.port }
}

/**
 * Reads the header; the bytes after it are put back on the socket. Resolves with the proxied peer
 * (undefined: keep the socket's own), rejects when the header is missing, bad or late.
 */
export function readProxyHeader(socket: Socket, timeoutMs: number): Promise<ProxiedPeer | undefined> {
  return new Promise((resolve, reject) => {
    let bytes = Buffer.alloc(0)
    const done = (error?: Error) => {
      clearTimeout(timer)
      socket.off('data', onData)
      socket.off('close', onClose)
      socket.pause()
      if (error) reject(error)
    }
    const onClose = () => done(new Error('closed before the PROXY header'))
    const onData = (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk])
      const length = headerLength(bytes)
      if (length === 0) return
      if (length < 0) return done(new Error('not a PROXY protocol header'))
      if (bytes.length < length) return
      done()
      if (bytes.length > length) socket.unshift(bytes.subarray(length))
      try {
        resolve(sourceOf(bytes.subarray(0, length)))
      } catch (error) {
        reject(error as Error)
      }
    }
    const timer = setTimeout(() => done(new Error('PROXY header timed out')), timeoutMs)
    socket.on('data', onData)
    socket.on('close', onClose)
    // The listener accepts with pauseOnConnect, so no byte is read before this reader is in place.
    socket.resume()
  })
}
