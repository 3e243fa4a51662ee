// Reason codes as the operator reads them (SPEC 8, issue 5): MQTT 3 CONNACK return codes 1–5, the
// MQTT 5 reason codes 0x80–0xA2 with their hex code, a generic text for others, in both languages;
// and every translatable key the test client's code names exists in both locales.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ACTIVE_KEY, KEPT_KEY, PASSWORDS_KEY, SETTINGS_KEY } from '../src/testclient/manager.ts'
import { hexCode, reasonText, V5_REASON_CODES } from '../src/testclient/reasonCodes.ts'
import en from '../locales/en.json' with { type: 'json' }
import zh from '../locales/zh.json' with { type: 'json' }
import { t, tZh } from './support/testClient.ts'

type Tree = { [key: string]: unknown }
function lookup(tree: Tree, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Tree)[part] : undefined), tree)
}
const read = (text: { key: string; values?: Record<string, string | number> }, translate = t) => translate(text.key, text.values)

describe('reason code texts', () => {
  it('reads MQTT 3.1 and 3.1.1 CONNACK return codes 1 to 5 with their number', () => {
    const texts = [1, 2, 3, 4, 5].map((code) => read(reasonText(code, 4, 'connack')))
    expect(texts).toEqual([
      'Connection refused: unacceptable protocol version (1)',
      'Connection refused: client identifier rejected (2)',
      'Connection refused: server unavailable (3)',
      'Connection refused: bad username or password (4)',
      'Connection refused: not authorized (5)',
    ])
    for (const code of [1, 2, 3, 4, 5]) expect(reasonText(code, 3, 'connack')).toEqual({ key: `mqttReason.v3_${code}` })
    expect(read(reasonText(5, 3, 'connack'), tZh)).toBe('连接被拒绝：未授权（5）')
  })

  it('reads MQTT 5 codes by name with their hex code, in both languages', () => {
    expect(read(reasonText(0x8a, 5, 'connack'))).toBe('Banned (0x8A)')
    expect(read(reasonText(0x98, 5, 'disconnect'))).toBe('Administrative action (0x98)')
    expect(read(reasonText(0x8e, 5, 'disconnect'))).toBe('Session taken over (0x8E)')
    expect(read(reasonText(0x87, 5, 'ack'))).toBe('Not authorized (0x87)')
    expect(read(reasonText(0x8a, 5, 'connack'), tZh)).toBe('已被封禁（0x8A）')
    for (const code of V5_REASON_CODES) {
      const text = reasonText(code, 5, 'connack')
      expect(text).toEqual({ key: `mqttReason.rc_${code.toString(16)}`, values: { code: hexCode(code) } })
      expect(read(text).endsWith(`(${hexCode(code)})`), read(text)).toBe(true)
      expect(read(text, tZh).endsWith(`（${hexCode(code)}）`), read(text, tZh)).toBe(true)
    }
  })

  it('reads an MQTT 3 SUBACK failure (0x80) as Failure and an MQTT 5 one as Unspecified error', () => {
    expect(read(reasonText(0x80, 4, 'ack'))).toBe('Failure (0x80)')
    expect(read(reasonText(0x80, 5, 'ack'))).toBe('Unspecified error (0x80)')
  })

  it('gives codes the spec does not name a generic text with the hex code', () => {
    expect(read(reasonText(0x10, 5, 'disconnect'))).toBe('Reason code 0x10')
    expect(read(reasonText(0xff, 5, 'connack'))).toBe('Reason code 0xFF')
    expect(read(reasonText(0xa3, 5, 'connack'))).toBe('Reason code 0xA3')
    // A v3 return code beyond 5, and v3 numbers on an MQTT 5 connection, are not the v3 texts.
    expect(read(reasonText(6, 4, 'connack'))).toBe('Reason code 0x06')
    expect(read(reasonText(5, 5, 'connack'))).toBe('Reason code 0x05')
    expect(read(reasonText(5, 4, 'disconnect'))).toBe('Reason code 0x05')
    expect(read(reasonText(0xff, 4, 'ack'), tZh)).toBe(tZh('mqttReason.other', { code: '0xFF' }))
  })

  it('writes hex codes with two upper-case digits', () => {
    expect([0x5, 0x8a, 0xa2, 0x100].map(hexCode)).toEqual(['0x05', '0x8A', '0xA2', '0x100'])
  })

  it('has a text in both languages for every key reasonText can give, and no mqttReason text it never gives', () => {
    const given = new Set<string>()
    for (let code = 0; code <= 0xff; code++)
      for (const version of [3, 4, 5] as const)
        for (const packet of ['connack', 'disconnect', 'ack'] as const) given.add(reasonText(code, version, packet).key)
    for (const key of given) {
      expect(lookup(en as Tree, key), `en ${key}`).toBeTypeOf('string')
      expect(lookup(zh as Tree, key), `zh ${key}`).toBeTypeOf('string')
    }
    expect([...given].sort()).toEqual(Object.keys(en.mqttReason).map((key) => `mqttReason.${key}`).sort())
  })
})

describe("the test client's own texts", () => {
  const sources = [
    'src/testclient/connection.ts',
    'src/testclient/connectionSettings.ts',
    'src/testclient/manager.ts',
    'src/testclient/payload.ts',
    'src/features/websocket/terminalFeed.ts',
    'commands/testClient.ts',
  ]

  it('exist in both locales for every key the code names', () => {
    const keys = new Set<string>()
    for (const file of sources) {
      const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')
      for (const [, key] of text.matchAll(/'((?:testClient|cmd\.testClient|mqttReason|err|form\.field|form\.hint|cmdGroup)\.[A-Za-z0-9_.]+)'/g)) keys.add(key)
    }
    // The storage keys look like i18n keys but name saved settings.
    for (const storageKey of [SETTINGS_KEY, PASSWORDS_KEY, ACTIVE_KEY, KEPT_KEY]) keys.delete(storageKey)
    expect(keys.size).toBeGreaterThan(30)
    const missing = [...keys].filter((key) => typeof lookup(en as Tree, key) !== 'string' || typeof lookup(zh as Tree, key) !== 'string')
    expect(missing).toEqual([])
  })
})
