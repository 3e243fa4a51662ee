// A payload as EMQX 5.8's trace writes it (emqx_packet:format_payload/2): `hidden` as six
// asterisks, text when it is UTF-8 (hex otherwise), and past 1 KB only the first 100 bytes with the
// count of the rest.
import type { TracePayloadEncode } from '../../contract/trace.ts'

const MAX_FORMAT_SIZE = 1024
const TRUNCATED_SIZE = 100
const utf8 = new TextDecoder('utf-8', { fatal: true })

function asText(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes)
  } catch {
    return undefined
  }
}

/** The longest prefix of at most `limit` bytes that ends on a whole UTF-8 character, if the bytes are UTF-8 up to there. */
function utf8Prefix(bytes: Buffer, limit: number): number | undefined {
  let end = limit
  // Back off continuation bytes (10xxxxxx) so the cut falls between characters.
  while (end > 0 && end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--
  return asText(bytes.subarray(0, end)) === undefined ? undefined : end
}

/** The payload's text and the encoding it ended up in (text falls back to hex for binary bytes). */
export function formatPayload(payload: Buffer, encode: TracePayloadEncode): { text: string; encode: TracePayloadEncode } {
  if (encode === 'hidden') return { text: '******', encode }
  if (payload.length === 0) return { text: '', encode }
  if (payload.length <= MAX_FORMAT_SIZE) {
    if (encode === 'hex') return { text: payload.toString('hex').toUpperCase(), encode }
    const text = asText(payload)
    return text === undefined ? { text: payload.toString('hex').toUpperCase(), encode: 'hex' } : { text, encode }
  }
  let kind = encode
  let length = TRUNCATED_SIZE
  if (kind === 'text') {
    const prefix = utf8Prefix(payload, TRUNCATED_SIZE)
    if (prefix === undefined) kind = 'hex'
    else length = prefix
  }
  const part = payload.subarray(0, length)
  const shown = kind === 'hex' ? part.toString('hex').toUpperCase() : part.toString('utf8')
  return { text: `${shown}...(${payload.length - length} bytes)`, encode: kind }
}
