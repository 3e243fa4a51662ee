// React views of the test client's live objects: the manager's tabs, one connection's snapshot,
// one store's message lists (re-rendered once per frame batch, never per message) and its counts.
import { useStore } from 'jotai'
import { use, useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import type { ConnectionSnapshot, TestConnection } from '../../testclient/connection.ts'
import { loadTestClient } from './host.ts'
import type { TestClientManager } from '../../testclient/manager.ts'
import type { MessageCounts, MessageStore } from '../../testclient/messages/store.ts'
import { MessageView } from '../../testclient/messageView.ts'

/** The page's manager; suspends until mqtt.js and the manager have loaded. */
export function useManager(): TestClientManager {
  return use(loadTestClient(useStore()))
}

export function useManagerState(manager: TestClientManager): { connections: readonly TestConnection[]; active: string; kept: number } {
  const subscribe = useCallback((listener: () => void) => manager.subscribe(listener), [manager])
  const connections = useSyncExternalStore(subscribe, () => manager.list())
  const active = useSyncExternalStore(subscribe, () => manager.active)
  const kept = useSyncExternalStore(subscribe, () => manager.keptMessages)
  return { connections, active, kept }
}

export function useConnection(connection: TestConnection): ConnectionSnapshot {
  const subscribe = useCallback((listener: () => void) => connection.subscribe(listener), [connection])
  return useSyncExternalStore(subscribe, () => connection.snapshot())
}

export function usePaused(store: MessageStore): boolean {
  const subscribe = useCallback((listener: () => void) => store.onPausedChange(listener), [store])
  return useSyncExternalStore(subscribe, () => store.isPaused)
}

function sameCounts(a: MessageCounts, b: MessageCounts): boolean {
  return a.received === b.received && a.published === b.published && a.droppedFromView === b.droppedFromView
}

export interface MessagesState {
  view: MessageView
  /** Changes with every batch the store announces (and at clear and resize). */
  version: number
  /** The store's exact counts. */
  counts: MessageCounts
  paused: boolean
}

/**
 * The lists' model and the counts, refreshed once per batch the store announces. While the lists
 * are paused the store announces nothing, so the counts are then read once per animation frame.
 */
export function useMessages(store: MessageStore): MessagesState {
  const view = useMemo(() => new MessageView(), [store])
  const paused = usePaused(store)
  const [state, setState] = useState(() => ({ version: 0, counts: store.stats() }))
  useEffect(() => {
    const refresh = () => setState((current) => ({ version: current.version + 1, counts: store.stats() }))
    view.reset(store)
    refresh()
    return store.subscribe((batch) => {
      view.apply(batch, store)
      refresh()
    })
  }, [store, view])
  useEffect(() => {
    const counts = () =>
      setState((current) => {
        const next = store.stats()
        return sameCounts(current.counts, next) ? current : { ...current, counts: next }
      })
    counts()
    if (!paused) return
    let frame = 0
    const tick = () => {
      counts()
      frame = requestAnimationFrame(tick)
    }
    frame = requestAnimationFrame(tick)
    return () => cancelAnimationFrame(frame)
  }, [store, paused])
  return { view, paused, ...state }
}
