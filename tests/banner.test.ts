// The start-up banner says where the server really listens; BIND (or its older name HOST) chooses it.
import type { NetworkInterfaceInfo } from 'node:os'
import { describe, expect, it } from 'vitest'
import { bannerLines } from '../server/banner.ts'
import { loadConfig } from '../server/config.ts'
import { startTestServer } from './support/server.ts'

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null }) as unknown as NetworkInterfaceInfo
const interfaces = {
  lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)],
  eth0: [nic('192.168.1.20', 'IPv4'), nic('2001:db8::20', 'IPv6'), nic('fe80::1', 'IPv6')],
}
const broker = { mqttPort: 1883, wsPort: 8083, dataDir: './data' }

describe('the start-up banner', () => {
  it('says a 0.0.0.0 bind is every IPv4 interface and lists the addresses other machines use', () => {
    expect(bannerLines({ address: '0.0.0.0', port: 18083, broker }, interfaces)).toEqual([
      'EMQX Console (embedded broker), listening on all IPv4 interfaces (0.0.0.0)',
      '  Console and REST API  http://localhost:18083',
      '  from other machines   http://192.168.1.20:18083',
      '  MQTT over TCP         mqtt://localhost:1883',
      '  MQTT over WebSocket   ws://localhost:8083/mqtt',
      '  data in ./data; first login admin / public',
    ])
  })

  it('lists IPv6 addresses too for a :: bind, without link-local ones', () => {
    expect(bannerLines({ address: '::', port: 18083, broker }, interfaces).slice(0, 3)).toEqual([
      'EMQX Console (embedded broker), listening on all interfaces (::)',
      '  Console and REST API  http://localhost:18083',
      '  from other machines   http://192.168.1.20:18083, http://[2001:db8::20]:18083',
    ])
  })

  it('says a loopback bind is this machine only, with that address in the URLs', () => {
    expect(bannerLines({ address: '127.0.0.1', port: 18083, broker }, interfaces).slice(0, 3)).toEqual([
      'EMQX Console (embedded broker), listening on 127.0.0.1 only (this machine)',
      '  Console and REST API  http://127.0.0.1:18083',
      '  MQTT over TCP         mqtt://127.0.0.1:1883',
    ])
    expect(bannerLines({ address: '192.168.1.20', port: 80 }, interfaces)[0]).toBe('EMQX Console (embedded broker), listening on 192.168.1.20 only')
  })

  it('names the EMQX it proxies to, and no broker lines', () => {
    expect(bannerLines({ address: '0.0.0.0', port: 18083, proxyTo: 'http://emqx:18083' }, { lo: interfaces.lo })).toEqual([
      'EMQX Console, proxying /api/v5 to http://emqx:18083; listening on all IPv4 interfaces (0.0.0.0)',
      '  Console and REST API  http://localhost:18083',
    ])
  })

  it('reports the address the real server bound', async () => {
    const t = await startTestServer({ config: { host: '0.0.0.0' } })
    try {
      expect(t.server.address).toBe('0.0.0.0')
      expect(bannerLines({ address: t.server.address, port: t.server.port })[0]).toContain('all IPv4 interfaces (0.0.0.0)')
      expect((await fetch(`http://127.0.0.1:${t.server.port}/api/v5/clients`)).status).toBe(401)
    } finally {
      await t.close()
    }
    const local = await startTestServer()
    try {
      expect(local.server.address).toBe('127.0.0.1')
    } finally {
      await local.close()
    }
  })
})

describe('BIND', () => {
  it('is every IPv4 interface by default, BIND chooses, HOST still works as its older name', () => {
    expect(loadConfig({}).host).toBe('0.0.0.0')
    expect(loadConfig({ BIND: '127.0.0.1' }).host).toBe('127.0.0.1')
    expect(loadConfig({ HOST: '127.0.0.1' }).host).toBe('127.0.0.1')
    expect(loadConfig({ BIND: '::1', HOST: '127.0.0.1' }).host).toBe('::1')
  })
})
