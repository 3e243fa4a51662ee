// Payload encodings of the test client (SPEC section 9: plaintext, base64, JSON, hex): what the
// operator types becomes bytes for PUBLISH, and received bytes are shown in the chosen encoding.
export const PAYLOAD_ENCODINGS = ['plaintext', 'base64', 'json', 'hex'] as const
export type PayloadEncoding = (typeof PAYLOAD_ENCODINGS)[number]

/** Payloads over this size are not rendered (SPEC section 5: 'Payloads over 1 MB cannot be viewed'). */
export const MAX_VIEWABLE_PAYLOAD = 1024 * 1024

export type Encoded = { ok: true; bytes: Uint8Array } | { ok: false; error: string }

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const HEX = /^(?:[0-9a-fA-F]{2})*$/

/** The bytes for `text` in `encoding`, or the i18n key of what is wrong with it. */
export function encodePayload(text: string, encoding: PayloadEncoding): Encoded {
  switch (encoding) {
    case 'plaintext':
      return { ok: true, bytes: new TextEncoder().encode(text) }
    case 'json':
      try {
        JSON.parse(text)
      } catch {
        return { ok: false, error: 'err.json' }
      }
      return { ok: true, bytes: new TextEncoder().encode(text) }
    case 'base64': {
      const compact = text.replace(/\s+/g, '')
      if (!BASE64.test(compact)) return { ok: false, error: 'err.base64' }
      const binary = atob(compact)
      return { ok: true, bytes: Uint8Array.from(binary, (c) => c.charCodeAt(0)) }
    }
    case 'hex': {
      // Spaces and an optional 0x make pasted dumps (`de ad be ef`, `0xdeadbeef`) acceptable.
      const compact = text.replace(/\s+/g, '').replace(/^0x/i, '')
      if (!HEX.test(compact)) return { ok: false, error: 'err.hex' }
      const bytes = new Uint8Array(compact.length / 2)
      for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(compact.slice(i * 2, i * 2 + 2), 16)
      return { ok: true, bytes }
    }
  }
}

export interface Decoded {
  text: string
  /** JSON view asked for but the payload is not JSON: shown as text. */
  notJson?: boolean
  /** Over MAX_VIEWABLE_PAYLOAD: `text` is empty and the view shows the spec's notice. */
  tooLarge?: boolean
}

/** Received bytes as the operator wants to read them. */
export function decodePayload(bytes: Uint8Array, encoding: PayloadEncoding): Decoded {
  if (bytes.length > MAX_VIEWABLE_PAYLOAD) return { text: '', tooLarge: true }
  switch (encoding) {
    case 'plaintext':
      return { text: new TextDecoder().decode(bytes) }
    case 'json': {
      const text = new TextDecoder().decode(bytes)
      try {
        return { text: JSON.stringify(JSON.parse(text), null, 2) }
      } catch {
        return { text, notJson: true }
      }
    }
    case 'base64': {
      let binary = ''
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
      return { text: btoa(binary) }
    }
    case 'hex':
      return { text: Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ') }
  }
}
