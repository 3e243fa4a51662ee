import { describe, expect, it } from 'vitest'
import { Ring } from '../src/testclient/messages/ring.ts'
import { MessageStore, topicMatches, type NewMessage, type TestMessage } from '../src/testclient/messages/store.ts'

function message(n: number, direction: 'in' | 'out' = 'in'): NewMessage {
  return { direction, topic: `t/${n}`, qos: 0, retain: false, payload: new Uint8Array([n & 0xff]), time: n }
}

/** A scheduler the test drives: frames run only when it says so. */
function frames() {
  const pending: Array<() => void> = []
  return {
    schedule: (flush: () => void) => void pending.push(flush),
    run: () => pending.splice(0).forEach((flush) => flush()),
    get waiting() {
      return pending.length
    },
  }
}

describe('ring', () => {
  it('keeps the newest items in order and counts what it evicted', () => {
    const ring = new Ring<number>(3)
    for (let i = 1; i <= 7; i++) ring.push(i)
    expect(ring.toArray()).toEqual([5, 6, 7])
    expect([ring.at(0), ring.at(2), ring.at(3)]).toEqual([5, 7, undefined])
    expect({ pushed: ring.pushed, evicted: ring.evicted, length: ring.length }).toEqual({ pushed: 7, evicted: 4, length: 3 })
    ring.clear()
    expect(ring.toArray()).toEqual([])
    ring.push(8)
    expect(ring.toArray()).toEqual([8])
    expect(ring.pushed).toBe(8)
  })

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new Ring(0)).toThrow(RangeError)
    expect(() => new Ring(1.5)).toThrow(RangeError)
  })
})

describe('message store', () => {
  it('tells views once per frame, however many messages arrived', () => {
    const clock = frames()
    const store = new MessageStore(100, clock.schedule)
    const batches: TestMessage[][] = []
    store.subscribe((batch) => batches.push([...batch]))
    for (let i = 0; i < 50; i++) store.push(message(i))
    expect(clock.waiting).toBe(1)
    expect(batches).toEqual([])
    clock.run()
    expect(batches).toHaveLength(1)
    expect(batches[0].map((m) => m.topic)).toEqual(Array.from({ length: 50 }, (_, i) => `t/${i}`))
    expect(new Set(batches[0].map((m) => m.id)).size).toBe(50)
  })

  it('counts every message exactly while keeping only the newest', () => {
    const clock = frames()
    const store = new MessageStore(1000, clock.schedule)
    for (let i = 0; i < 25_000; i++) store.push(message(i, i % 5 === 0 ? 'out' : 'in'))
    clock.run()
    expect(store.stats()).toEqual({ received: 20_000, published: 5_000, droppedFromView: 24_000 })
    const kept = store.messages()
    expect(kept).toHaveLength(1000)
    expect(kept[0].topic).toBe('t/24000')
    expect(kept.at(-1)?.topic).toBe('t/24999')
  })

  it('a frame never hands views more than the store keeps', () => {
    const clock = frames()
    const store = new MessageStore(10, clock.schedule)
    let seen: readonly TestMessage[] = []
    store.subscribe((batch) => (seen = batch))
    for (let i = 0; i < 35; i++) store.push(message(i))
    clock.run()
    expect(seen.map((m) => m.topic)).toEqual(store.messages().map((m) => m.topic))
  })

  it('paused: keeps and counts, tells nobody until resumed', () => {
    const clock = frames()
    const store = new MessageStore(100, clock.schedule)
    let told = 0
    store.subscribe((batch) => (told += batch.length))
    store.setPaused(true)
    for (let i = 0; i < 5; i++) store.push(message(i))
    clock.run()
    expect(told).toBe(0)
    expect(store.stats().received).toBe(5)
    store.setPaused(false)
    clock.run()
    expect(told).toBe(5)
  })

  it('clear empties the view and tells views, counts stay', () => {
    const clock = frames()
    const store = new MessageStore(100, clock.schedule)
    const batches: number[] = []
    store.subscribe((batch) => batches.push(batch.length))
    store.push(message(1))
    store.clear()
    clock.run()
    expect(store.messages()).toEqual([])
    expect(batches).toEqual([0])
    expect(store.stats().received).toBe(1)
  })
})

describe('topic filter of the message lists', () => {
  it('matches MQTT wildcards and keeps $-topics out of leading wildcards', () => {
    expect(topicMatches('', 'a/b')).toBe(true)
    expect(topicMatches('a/+/c', 'a/b/c')).toBe(true)
    expect(topicMatches('a/+', 'a/b/c')).toBe(false)
    expect(topicMatches('a/#', 'a')).toBe(true)
    expect(topicMatches('a/#', 'a/b/c')).toBe(true)
    expect(topicMatches('#', '$SYS/x')).toBe(false)
    expect(topicMatches('$SYS/#', '$SYS/x')).toBe(true)
    expect(topicMatches('a/b', 'a/b/c')).toBe(false)
  })
})
