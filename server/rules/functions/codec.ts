// Encodings (base64, hex, JSON) and compression. Decoders and compressors return bytes (Buffer).
import { deflateRawSync, deflateSync, gunzipSync, gzipSync, inflateRawSync, inflateSync } from 'node:zlib'
import { termDecode, termEncode } from './term.ts'
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { BitString, RuleFunctionError, badarg, bytes, fromBits, jsonEncode, text } from './values.ts'

/** emqx_variform_bif:bin2hexstr: upper-case hex; a bitstring is padded with leading zero bits to whole
 * bytes, and a first digit that is all padding is dropped. */
function toHex(v: unknown): string {
  if (!(v instanceof BitString)) return bytes('bin2hexstr', v).toString('hex').toUpperCase()
  const padSize = 8 - (v.bitSize % 8)
  const hex = (fromBits('0'.repeat(padSize) + v.bits) as Buffer).toString('hex').toUpperCase()
  return padSize >= 4 ? hex.slice(1) : hex
}

/** emqx_utils:hexstr_to_bin: an odd count of digits reads as if led by a 0. */
function fromHex(fn: string, v: unknown): Buffer {
  const s = text(fn, v)
  if (!/^[0-9a-fA-F]*$/.test(s)) return badarg(fn, v)
  return Buffer.from(s.length % 2 === 1 ? `0${s}` : s, 'hex')
}

// base64:decode: the standard alphabet, whitespace skipped, padding optional.
function base64Decode(v: unknown): Buffer {
  const s = text('base64_decode', v).replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.replace(/=+$/, '').length % 4 === 1) return badarg('base64_decode', v)
  return Buffer.from(s, 'base64')
}

function zlibCall(fn: string, f: (b: Buffer) => Buffer) {
  return ruleFn([1], (v) => {
    try {
      return f(bytes(fn, v))
    } catch (e) {
      if (e instanceof RuleFunctionError) throw e
      throw new RuleFunctionError('data_error', `data_error: ${fn}`)
    }
  })
}

export const codecFunctions: RuleFunctionGroup = {
  bin2hexstr: ruleFn([1, 2], (bin, prefix) => (prefix === undefined ? '' : text('bin2hexstr', prefix)) + toHex(bin)),
  hexstr2bin: ruleFn([1, 2], (str, prefix) => {
    if (prefix === undefined) return fromHex('hexstr2bin', str)
    const s = text('hexstr2bin', str)
    const p = text('hexstr2bin', prefix)
    if (!s.startsWith(p)) throw new RuleFunctionError('binary_prefix_unmatch', 'binary_prefix_unmatch')
    return fromHex('hexstr2bin', s.slice(p.length))
  }),
  sqlserver_bin2hexstr: ruleFn([1], (bin) => `0x${toHex(bin)}`),
  base64_encode: ruleFn([1], (v) => bytes('base64_encode', v).toString('base64')),
  base64_decode: ruleFn([1], base64Decode),
  json_encode: ruleFn([1], (v) => jsonEncode(v)),
  json_decode: ruleFn([1], (v) => {
    try {
      return JSON.parse(text('json_decode', v)) as unknown
    } catch {
      return badarg('json_decode', v)
    }
  }),
  term_encode: ruleFn([1], termEncode),
  term_decode: ruleFn([1], termDecode),
  gzip: zlibCall('gzip', (b) => gzipSync(b)),
  gunzip: zlibCall('gunzip', (b) => gunzipSync(b)),
  // zlib:zip/unzip are raw deflate; zlib:compress/uncompress carry the zlib header.
  zip: zlibCall('zip', (b) => deflateRawSync(b)),
  unzip: zlibCall('unzip', (b) => inflateRawSync(b)),
  zip_compress: zlibCall('zip_compress', (b) => deflateSync(b)),
  zip_uncompress: zlibCall('zip_uncompress', (b) => inflateSync(b)),
}
