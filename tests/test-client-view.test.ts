import { describe, expect, it } from 'vitest'
import { MessageStore, type NewMessage } from '../src/testclient/messages/store.ts'
import { MessageView, type MessageColumn } from '../src/testclient/messageView.ts'

function message(n: number, direction: 'in' | 'out' = 'in', topic = `t/${n}`): NewMessage {
  return { direction, topic, qos: 0, retain: false, payload: new Uint8Array([n & 0xff]), time: n }
}

/** Frames run when the test says so. */
function frames() {
  const pending: Array<() => void> = []
  return { schedule: (flush: () => void) => void pending.push(flush), run: () => pending.splice(0).forEach((flush) => flush()) }
}

function topics(column: MessageColumn): string[] {
  return Array.from({ length: column.length }, (_, i) => column.newest(i)?.topic ?? '?')
}

/** A view fed by the store exactly as the screen feeds it. */
function watched(capacity: number) {
  const clock = frames()
  const store = new MessageStore(capacity, clock.schedule)
  const view = new MessageView()
  view.reset(store)
  store.subscribe((batch) => view.apply(batch, store))
  return { clock, store, view }
}

describe('message lists', () => {
  it('split the kept messages by direction, newest first', () => {
    const { clock, store, view } = watched(100)
    store.push(message(1, 'in'))
    store.push(message(2, 'out'))
    store.push(message(3, 'in'))
    clock.run()
    expect(topics(view.received)).toEqual(['t/3', 't/1'])
    expect(topics(view.published)).toEqual(['t/2'])
  })

  it('hold exactly what the ring keeps when it overflows, across many frames', () => {
    const { clock, store, view } = watched(1000)
    for (let frame = 0; frame < 30; frame++) {
      for (let i = 0; i < 333; i++) {
        const n = frame * 333 + i
        store.push(message(n, n % 4 === 0 ? 'out' : 'in'))
      }
      clock.run()
    }
    const kept = store.messages()
    expect(view.received.length + view.published.length).toBe(1000)
    expect(topics(view.received)).toEqual(kept.filter((m) => m.direction === 'in').map((m) => m.topic).reverse())
    expect(topics(view.published)).toEqual(kept.filter((m) => m.direction === 'out').map((m) => m.topic).reverse())
  })

  it('start afresh when the store is cleared or resized, without repeating a pending batch', () => {
    const { clock, store, view } = watched(100)
    for (let i = 0; i < 10; i++) store.push(message(i))
    clock.run()
    store.push(message(10))
    store.clear()
    expect(view.received.length).toBe(0)
    store.push(message(11))
    clock.run()
    expect(topics(view.received)).toEqual(['t/11'])

    for (let i = 12; i < 40; i++) store.push(message(i))
    store.resize(5)
    // The resize re-read the ring; the frame's batch then repeats those messages and is skipped.
    clock.run()
    expect(topics(view.received)).toEqual(['t/39', 't/38', 't/37', 't/36', 't/35'])
  })

  it('give the list a frozen copy of the rows: later batches do not move what it reads', () => {
    const { clock, store, view } = watched(3)
    for (let i = 0; i < 3; i++) store.push(message(i))
    clock.run()
    const rendered = view.received.frozen()
    for (let i = 3; i < 3000; i++) store.push(message(i))
    clock.run()
    expect(Array.from({ length: rendered.length }, (_, i) => rendered.at(i)?.topic)).toEqual(['t/2', 't/1', 't/0'])
    expect(rendered.at(3)).toBeUndefined()
    expect(topics(view.received)).toEqual(['t/2999', 't/2998', 't/2997'])
  })

  it('filter by an MQTT topic filter', () => {
    const { clock, store, view } = watched(100)
    store.push(message(1, 'in', 'a/b'))
    store.push(message(2, 'in', 'a/c/d'))
    store.push(message(3, 'in', 'x/b'))
    clock.run()
    expect(view.received.matching('a/#').map((m) => m.topic)).toEqual(['a/c/d', 'a/b'])
    expect(view.received.matching('+/b').map((m) => m.topic)).toEqual(['x/b', 'a/b'])
  })

  it('tell the screen when the lists are paused or resumed', () => {
    const { store } = watched(100)
    const seen: boolean[] = []
    store.onPausedChange(() => seen.push(store.isPaused))
    store.setPaused(true)
    store.setPaused(true)
    store.setPaused(false)
    expect(seen).toEqual([true, false])
  })
})
