// The broker's timer wheel (server/broker/timer-wheel.ts): one timer for every connection's deadline.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TimerWheel, type WheelItem } from '../server/broker/timer-wheel.ts'

interface Item extends WheelItem {
  name: string
}
const item = (name: string): Item => ({ name, wheelSlot: 0 })

describe('the timer wheel', () => {
  beforeEach(() => void vi.useFakeTimers({ now: 1_000_000 }))
  afterEach(() => void vi.useRealTimers())

  it('fires each item once its deadline has passed, at most one resolution late, and not before', () => {
    const fired: string[] = []
    const wheel = new TimerWheel<Item>(100, (it) => fired.push(it.name))
    wheel.schedule(item('a'), Date.now() + 250)
    wheel.schedule(item('b'), Date.now() + 1000)
    vi.advanceTimersByTime(249)
    expect(fired).toEqual([])
    vi.advanceTimersByTime(100)
    expect(fired).toEqual(['a'])
    vi.advanceTimersByTime(800)
    expect(fired).toEqual(['a', 'b'])
    wheel.stop()
  })

  it('moves an item rescheduled to a later deadline, forgets a cancelled one, and stops its timer when empty', () => {
    const fired: string[] = []
    const wheel = new TimerWheel<Item>(100, (it) => fired.push(it.name))
    const a = item('a')
    const b = item('b')
    wheel.schedule(a, Date.now() + 200)
    wheel.schedule(b, Date.now() + 200)
    wheel.schedule(a, Date.now() + 900)
    wheel.cancel(b)
    expect(b.wheelSlot).toBe(0)
    vi.advanceTimersByTime(500)
    expect(fired).toEqual([])
    vi.advanceTimersByTime(500)
    expect(fired).toEqual(['a'])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('fires what came due while the process stood still, and an item may schedule itself again from its callback', () => {
    const fired: string[] = []
    const wheel: TimerWheel<Item> = new TimerWheel<Item>(100, (it) => {
      fired.push(it.name)
      if (fired.length === 1) wheel.schedule(it, Date.now() + 100)
    })
    wheel.schedule(item('a'), Date.now() + 100)
    vi.setSystemTime(Date.now() + 60_000)
    vi.advanceTimersByTime(100)
    expect(fired).toEqual(['a'])
    vi.advanceTimersByTime(300)
    expect(fired).toEqual(['a', 'a'])
    wheel.stop()
  })
})
