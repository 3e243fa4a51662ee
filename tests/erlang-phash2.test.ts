// erlang:phash2/1 of binaries against values the Erlang runtime itself gave (Debian's erlang-base,
// OTP 25: `[erlang:phash2(B) || B <- ...]`): every tail length of the 12-byte blocks, and UTF-8.
import { describe, expect, it } from 'vitest'
import { phash2Binary } from '../server/integration/drivers/erlang-phash2.ts'

// Bytes 22, 23, ... (n of them) for n = 0..40.
const ERLANG = [
  13708901, 64955782, 100588433, 37511984, 39860832, 55309992, 62728994, 101165090, 39063846, 49992372, 3893874, 68046233, 48733712, 90162923, 26163726, 24219813, 9184957,
  131463956, 52945006, 95834362, 44957246, 53854910, 33777945, 116458065, 19919382, 76776640, 132466426, 118644416, 48386568, 57768502, 15792371, 80825076, 39772148,
  69935957, 22198772, 67205850, 105178708, 56375634, 104356159, 79591886, 43374786,
]

describe('erlang:phash2 of a binary', () => {
  it('gives what the Erlang runtime gives for every length from 0 to 40 bytes', () => {
    const ours = ERLANG.map((_, n) => phash2Binary(Uint8Array.from({ length: n }, (_, j) => 22 + j)))
    expect(ours).toEqual(ERLANG)
  })

  it('hashes text as its UTF-8 bytes', () => {
    expect(phash2Binary(Buffer.from('a'))).toBe(112802447)
    expect(phash2Binary(Buffer.from('sensor-1'))).toBe(107917632)
    expect(phash2Binary(Buffer.from('hello world!'))).toBe(25699699)
    expect(phash2Binary(Buffer.from('温度/室内'))).toBe(57144561)
  })
})
