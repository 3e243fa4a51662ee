// Toast notifications: a jotai atom holding the visible stack, and `notify` to push onto it from
// anywhere that has the store (the runner, the session expiry handler, logout).
import { atom, useStore } from 'jotai'
import type { Store } from 'jotai'
import { useCallback } from 'react'
import type { Text } from '../../commands/define.ts'

export type NotificationKind = 'success' | 'error' | 'info'

export interface NotificationInput {
  kind: NotificationKind
  /** Shown as is, or translated when it is an i18n key or a `{key, values}` text. */
  text: string | Text
  /** Milliseconds before it goes away by itself; 0 keeps it until dismissed. */
  timeout?: number
}

export interface Notification extends Required<NotificationInput> {
  id: number
}

/** At most this many are shown; older ones are dropped first. */
export const MAX_NOTIFICATIONS = 5

const DEFAULT_TIMEOUT: Record<NotificationKind, number> = { success: 3500, info: 4500, error: 8000 }

export const notificationsAtom = atom<Notification[]>([])

let nextId = 1

export function notify(store: Store, input: NotificationInput): number {
  const id = nextId++
  const entry: Notification = { id, kind: input.kind, text: input.text, timeout: input.timeout ?? DEFAULT_TIMEOUT[input.kind] }
  store.set(notificationsAtom, (list) => [...list, entry].slice(-MAX_NOTIFICATIONS))
  return id
}

export function dismiss(store: Store, id: number): void {
  store.set(notificationsAtom, (list) => list.filter((n) => n.id !== id))
}

/** `notify` bound to the store of the surrounding jotai Provider. */
export function useNotify(): (input: NotificationInput) => number {
  const store = useStore()
  return useCallback((input: NotificationInput) => notify(store, input), [store])
}
