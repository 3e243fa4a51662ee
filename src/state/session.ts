// The logged-in session (SPEC 4): stored on login as localStorage `user` = {username, token},
// removed on logout or expiry together with the stored `edition`.
import { atom } from 'jotai'
import type { Store } from 'jotai'
import * as v from 'valibot'

export const sessionSchema = v.object({ username: v.string(), token: v.string() })
export type Session = v.InferOutput<typeof sessionSchema>

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined
  } catch {
    return undefined // access can throw when storage is blocked
  }
}

export function readStoredSession(): Session | null {
  try {
    const raw = storage()?.getItem('user')
    if (!raw) return null
    const parsed = v.safeParse(sessionSchema, JSON.parse(raw))
    return parsed.success && parsed.output.token ? parsed.output : null
  } catch {
    return null // unreadable JSON: treat as logged out
  }
}

const baseSession = atom<Session | null>(readStoredSession())

/** Read it for the user and token; write a session on login and `null` on logout or expiry. */
export const sessionAtom = atom(
  (get) => get(baseSession),
  (_get, set, next: Session | null) => {
    const store = storage()
    try {
      if (next) store?.setItem('user', JSON.stringify({ username: next.username, token: next.token }))
      else {
        store?.removeItem('user')
        store?.removeItem('edition')
      }
    } catch {
      // blocked storage: the session lives in memory only
    }
    set(baseSession, next)
  },
)

/** What the router context carries: the current session, read when a guard runs. */
export interface SessionReader {
  current(): Session | null
}

export function sessionReader(store: Store): SessionReader {
  return { current: () => store.get(sessionAtom) }
}

export type Edition = 'enterprise' | 'community'

/** Remembers the edition from login's `license.edition` (`ee` is enterprise). */
export function rememberEdition(licenseEdition: string): Edition {
  const edition: Edition = licenseEdition === 'ee' ? 'enterprise' : 'community'
  try {
    storage()?.setItem('edition', edition)
  } catch {
    // blocked storage: the edition falls back to community
  }
  return edition
}

/** SPEC 1: enterprise (code 1) when the stored value is enterprise, otherwise community (code 2). */
export function editionCode(stored: string | null | undefined = storage()?.getItem('edition')): 1 | 2 {
  return stored === 'enterprise' ? 1 : 2
}

/** True while the user's own logout call runs, so its 401 is not reported as an expired login. */
export const loggingOutAtom = atom(false)
