// Which rows have an action under way, so their buttons wait: `during(key, action)` marks the row
// while the action runs.
import { useCallback, useState } from 'react'

export function useRowBusy(): { busy: ReadonlySet<string>; during(key: string, action: () => Promise<unknown>): Promise<void> } {
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set())
  const during = useCallback(async (key: string, action: () => Promise<unknown>) => {
    setBusy((current) => new Set(current).add(key))
    try {
      await action()
    } finally {
      setBusy((current) => {
        const next = new Set(current)
        next.delete(key)
        return next
      })
    }
  }, [])
  return { busy, during }
}
