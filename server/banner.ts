// The start-up banner: where the console and the broker really listen, and how to reach them.
// A wildcard bind (0.0.0.0, ::) is said as such, with this machine's addresses, so nobody takes a
// server open to the network for one reachable only from this machine.
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os'

export interface BannerInfo {
  /** The address the listeners are bound to, as the socket reports it (0.0.0.0, ::, 127.0.0.1, ...). */
  address: string
  port: number
  /** Absent in proxy mode. */
  broker?: { mqttPort: number; wsPort: number; dataDir: string }
  /** Proxy mode: the EMQX that /api/v5 goes to. */
  proxyTo?: string
}

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>

const WILDCARDS: Record<string, { said: string; families: string[] }> = {
  '0.0.0.0': { said: 'all IPv4 interfaces (0.0.0.0)', families: ['IPv4'] },
  '::': { said: 'all interfaces (::)', families: ['IPv4', 'IPv6'] },
}

function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '::1'
}

function hostInUrl(address: string): string {
  return address.includes(':') ? `[${address}]` : address
}

/** This machine's non-loopback addresses of those families, as they go in a URL. */
function machineAddresses(families: string[], interfaces: Interfaces): string[] {
  const found: string[] = []
  for (const list of Object.values(interfaces)) {
    for (const entry of list ?? []) {
      if (entry.internal || !families.includes(entry.family)) continue
      // Link-local IPv6 needs a zone id in a URL; not something to paste into a browser.
      if (entry.family === 'IPv6' && entry.address.toLowerCase().startsWith('fe80:')) continue
      found.push(hostInUrl(entry.address))
    }
  }
  return found
}

export function bannerLines(info: BannerInfo, interfaces: Interfaces = networkInterfaces()): string[] {
  const wildcard = WILDCARDS[info.address]
  const host = wildcard ? 'localhost' : hostInUrl(info.address)
  const where = wildcard
    ? `listening on ${wildcard.said}`
    : `listening on ${info.address} only${isLoopback(info.address) ? ' (this machine)' : ''}`
  const lines = [
    info.proxyTo ? `EMQX Console, proxying /api/v5 to ${info.proxyTo}; ${where}` : `EMQX Console (embedded broker), ${where}`,
    `  Console and REST API  http://${host}:${info.port}`,
  ]
  if (wildcard) {
    const others = machineAddresses(wildcard.families, interfaces)
    if (others.length > 0) lines.push(`  from other machines   ${others.map((address) => `http://${address}:${info.port}`).join(', ')}`)
  }
  if (info.broker) {
    lines.push(`  MQTT over TCP         mqtt://${host}:${info.broker.mqttPort}`)
    lines.push(`  MQTT over WebSocket   ws://${host}:${info.broker.wsPort}/mqtt`)
    lines.push(`  data in ${info.broker.dataDir}; first login admin / public`)
  }
  return lines
}
