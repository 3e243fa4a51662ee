import { describe, expect, it } from 'vitest'
import { decodePayload, encodePayload, MAX_VIEWABLE_PAYLOAD, PAYLOAD_ENCODINGS } from '../src/testclient/payload.ts'
import en from '../locales/en.json' with { type: 'json' }

function bytesOf(text: string, encoding: Parameters<typeof encodePayload>[1]): number[] {
  const result = encodePayload(text, encoding)
  if (!result.ok) throw new Error(result.error)
  return [...result.bytes]
}

describe('payload encodings', () => {
  it('plaintext and JSON are UTF-8; JSON must parse', () => {
    expect(bytesOf('温度', 'plaintext')).toEqual([...new TextEncoder().encode('温度')])
    expect(bytesOf('{"t": 21.5}', 'json')).toEqual([...new TextEncoder().encode('{"t": 21.5}')])
    expect(encodePayload('{"t": }', 'json')).toEqual({ ok: false, error: 'err.json' })
  })

  it('base64 is strict (padding, alphabet) but ignores whitespace', () => {
    expect(bytesOf('AAEC/w==', 'base64')).toEqual([0, 1, 2, 255])
    expect(bytesOf('AAEC\n/w==', 'base64')).toEqual([0, 1, 2, 255])
    for (const bad of ['AAE', 'AA*C', 'A===']) expect(encodePayload(bad, 'base64')).toEqual({ ok: false, error: 'err.base64' })
  })

  it('hex takes pairs, with spaces or a 0x prefix', () => {
    expect(bytesOf('de ad BE ef', 'hex')).toEqual([0xde, 0xad, 0xbe, 0xef])
    expect(bytesOf('0x00ff', 'hex')).toEqual([0, 255])
    for (const bad of ['abc', 'zz', '0x1']) expect(encodePayload(bad, 'hex')).toEqual({ ok: false, error: 'err.hex' })
  })

  it('every encoding reads back what it wrote', () => {
    const samples = { plaintext: 'héllo\n', json: '{"a":[1,2]}', base64: 'AAEC/w==', hex: 'de ad be ef' }
    for (const encoding of PAYLOAD_ENCODINGS) {
      const encoded = encodePayload(samples[encoding], encoding)
      if (!encoded.ok) throw new Error(encoding)
      const decoded = decodePayload(encoded.bytes, encoding).text
      expect(encoding === 'json' ? JSON.parse(decoded) : decoded).toEqual(encoding === 'json' ? { a: [1, 2] } : samples[encoding])
    }
  })

  it('shows JSON pretty-printed, non-JSON as text with a marker, and nothing over 1 MB', () => {
    expect(decodePayload(new TextEncoder().encode('{"a":1}'), 'json')).toEqual({ text: '{\n  "a": 1\n}' })
    expect(decodePayload(new TextEncoder().encode('not json'), 'json')).toEqual({ text: 'not json', notJson: true })
    expect(decodePayload(new Uint8Array(MAX_VIEWABLE_PAYLOAD + 1), 'hex')).toEqual({ text: '', tooLarge: true })
    expect(decodePayload(new Uint8Array(200_000).fill(7), 'base64').text).toHaveLength(266_668)
  })

  it('its error texts exist', () => {
    expect(en.err).toMatchObject({ json: expect.any(String), base64: expect.any(String), hex: expect.any(String) })
  })
})
