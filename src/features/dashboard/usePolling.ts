// Reads on mount, every `intervalMs` while the tab is visible, when `deps` change and after any
// command that changed something (commandRunsAtom). Keeps the last good value through a failed read.
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { commandRunsAtom } from '../../state/commandRuns.ts'
import { errorText } from '../../ui/errorText.ts'

export interface Polled<T> {
  data: T | null
  error: string | null
  loading: boolean
  /** Epoch milliseconds of the last successful read. */
  updatedAt: number | null
  refresh: () => void
}

export function usePolling<T>(
  read: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
  intervalMs: number,
  enabled = true,
): Polled<T> {
  const [state, setState] = useState<Omit<Polled<T>, 'refresh'>>({ data: null, error: null, loading: enabled, updatedAt: null })
  const [tick, setTick] = useState(0)
  const commandRuns = useAtomValue(commandRunsAtom)
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
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, tick, commandRuns, ...deps])

  useEffect(() => {
    if (!enabled) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') setTick((n) => n + 1)
    }, intervalMs)
    return () => clearInterval(timer)
  }, [enabled, intervalMs])

  return { ...state, refresh }
}
