// erlang:phash2/1 of a binary, as wolff's key_dispatch picks a partition with it
// (`erlang:phash2(Key) rem PartitionCount`), so a key lands on the partition number EMQX would
// pick. The runtime hashes a binary with Bob Jenkins' lookup2 block hash over 12-byte blocks,
// seeded with the golden ratio and 13 × it, and keeps the low 27 bits.

const GOLDEN = 0x9e3779b9
/** 13 × the golden ratio, mod 2^32: the seed of a binary's hash. */
const BINARY_SEED = Math.imul(GOLDEN, 13) >>> 0
const PHASH2_MASK = (1 << 27) - 1

/** lookup2's mix of three 32-bit words: three rounds, each shift below taken in turn (negative: right). */
const MIX_SHIFTS = [-13, 8, -13, -12, 16, -5, -3, 10, -15]

function mix(state: Uint32Array): void {
  for (let step = 0; step < MIX_SHIFTS.length; step++) {
    // a -= b + c, then b -= c + a, then c -= a + b, each xored with the one before it, shifted.
    const x = step % 3
    const y = (x + 1) % 3
    const z = (x + 2) % 3
    const shift = MIX_SHIFTS[step]
    const other = state[z]
    state[x] = state[x] - state[y] - other
    state[x] ^= shift < 0 ? other >>> -shift : other << shift
  }
}

/** Little-endian 32-bit word of up to four bytes from `at` (missing bytes count as 0). */
function word(bytes: Uint8Array, at: number, end: number): number {
  let value = 0
  for (let i = 3; i >= 0; i--) value = ((value << 8) | (at + i < end ? bytes[at + i] : 0)) >>> 0
  return value
}

function blockHash(bytes: Uint8Array, seed: number): number {
  const state = new Uint32Array([GOLDEN, GOLDEN, seed])
  const length = bytes.length
  let at = 0
  for (; length - at >= 12; at += 12) {
    state[0] += word(bytes, at, length)
    state[1] += word(bytes, at + 4, length)
    state[2] += word(bytes, at + 8, length)
    mix(state)
  }
  // The tail: the length goes into c's low byte, the last bytes above it.
  state[2] += length
  state[0] += word(bytes, at, length)
  if (length - at > 4) state[1] += word(bytes, at + 4, length)
  if (length - at > 8) state[2] += word(bytes, at + 8, length) << 8
  mix(state)
  return state[2]
}

/** erlang:phash2(Binary): 0 .. 2^27 - 1. */
export function phash2Binary(bytes: Uint8Array): number {
  const hash = bytes.length === 0 ? BINARY_SEED : blockHash(bytes, BINARY_SEED)
  return hash & PHASH2_MASK
}
