// The broker's turn (server/broker/turns.ts): writes flushed once per turn, and the packet budget
// that holds only while a subscriber has a backlog, shared round robin among the connections.
import { describe, expect, it } from 'vitest'
import { PACKETS_PER_TURN, Turns, type TurnReader } from '../server/broker/turns.ts'

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/** A connection holding `packets` back, handling them only with budget taken from the turns. */
function reader(turns: Turns, name: string, packets: number, log: string[]): TurnReader {
  let left = packets
  const self: TurnReader = {
    readHeldBack(limit) {
      for (let n = 0; n < limit && left > 0; n++) {
        if (!turns.take()) return true
        left--
        log.push(name)
      }
      return left > 0
    },
  }
  return self
}

describe('the broker turn', () => {
  it('flushes each connection that wrote, once, at the end of the turn', async () => {
    const turns = new Turns()
    const flushed: string[] = []
    turns.gathered({ flush: () => flushed.push('a') })
    turns.gathered({ flush: () => flushed.push('b') })
    expect(flushed).toEqual([])
    await nextTurn()
    expect(flushed).toEqual(['a', 'b'])
  })

  it('has no budget while no subscriber has a backlog', () => {
    const turns = new Turns()
    for (let i = 0; i < PACKETS_PER_TURN * 3; i++) expect(turns.take()).toBe(true)
  })

  it('with a backlog, hands out the budget a turn at a time, in equal shares to the connections held back', async () => {
    const turns = new Turns()
    turns.backlogged = 1
    for (let i = 0; i < PACKETS_PER_TURN; i++) turns.take()
    expect(turns.take()).toBe(false)
    const log: string[] = []
    turns.holdBack(reader(turns, 'a', PACKETS_PER_TURN, log))
    turns.holdBack(reader(turns, 'b', PACKETS_PER_TURN, log))
    await nextTurn()
    expect(log.filter((name) => name === 'a')).toHaveLength(PACKETS_PER_TURN / 2)
    expect(log.filter((name) => name === 'b')).toHaveLength(PACKETS_PER_TURN / 2)
    await nextTurn()
    expect(log).toHaveLength(PACKETS_PER_TURN * 2)
  })
})
