// What every screen showing server data does: read on mount, when `deps` change, on refresh(), after
// a command that changes one of the API areas it reads (src/state/areaChanges.ts), and every
// `intervalMs` while the tab is visible when asked to poll. A read in flight is aborted by the next.
// A failed read keeps the last good data and says why in `error`.
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { ApiArea } from '../../commands/define.ts'
import { changesOf } from '../state/areaChanges.ts'
import { errorText } from '../ui/errorText.ts'

export interface ServerData<T> {
  data: T | null
  error: string | null
  loading: boolean
  /** Epoch milliseconds of the last successful read. */
  updatedAt: number | null
  refresh: () => void
}

export interface ServerDataOptions {
  /** Reads again this often while the tab is visible. */
  intervalMs?: number
  /** False: no reads at all (and `loading` false). */
  enabled?: boolean
}

/** `areas`: the API areas `read` reads (`['clients']`); a command changing one of them reads again. */
export function useServerData<T>(
  areas: readonly ApiArea[],
  read: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
  options: ServerDataOptions = {},
): ServerData<T> {
  const { intervalMs, enabled = true } = options
  const [state, setState] = useState<Omit<ServerData<T>, 'refresh'>>({ data: null, error: null, loading: enabled, updatedAt: null })
  const [tick, setTick] = useState(0)
  const areaKey = areas.join(' ')
  // The areas are named by their text: a new array with the same names is the same subscription.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const changes = useAtomValue(useMemo(() => changesOf(areas), [areaKey]))
  const readRef = useRef(read)
  readRef.current = read
  const refresh = useCallback(() => setTick((n) => n + 1), [])

  useEffect(() => {
    if (!enabled) return
    const controller = new AbortController()
    setState((previous) => ({ ...previous, loading: true }))
    readRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: null, loading: false, updatedAt: Date.now() })
      },
      (error: unknown) => {
        if (controller.signal.aborted) return
        setState((previous) => ({ ...previous, loading: false, error: errorText(error) }))
      },
    )
    return () => controller.abort()
    // `read` is a fresh closure each render; `deps` say when what it reads has changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, tick, changes, ...deps])

  useEffect(() => {
    if (!enabled || intervalMs === undefined) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') setTick((n) => n + 1)
    }, intervalMs)
    return () => clearInterval(timer)
  }, [enabled, intervalMs])

  return { ...state, refresh }
}
