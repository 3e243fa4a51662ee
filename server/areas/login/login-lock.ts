// Brute-force limits on POST /login, checked before the password.
//
// Per user, as EMQX 5.9 and 6.0 (emqx_dashboard_login_lock): the 5th wrong password for an existing user
// within 5 minutes locks that user for 10 minutes (401 LOGIN_LOCKED, even with the right
// password); attempts while locked are not counted, and a successful login forgets the count.
// Unknown usernames are not counted, as in EMQX (and so nothing is kept for made-up names).
//
// Per address, which EMQX does not have: 20 failed logins from one address within 5 minutes, for
// any usernames, refuse that address's logins (429) until the oldest of them is 5 minutes old, so
// one source guesses at most 4 passwords a minute across all users. It only ever refuses that
// address, and for at most 5 minutes after its last counted failure: it cannot lock anyone else out.
import { ApiError } from '../../http/errors.ts'

export interface LoginLockLimits {
  userMaxAttempts: number
  userIntervalMs: number
  userLockMs: number
  addressMaxFailures: number
  addressIntervalMs: number
  /** Addresses remembered at once; the least recently failing one is forgotten beyond this. */
  maxAddresses: number
}

export const LOGIN_LOCK_LIMITS: LoginLockLimits = {
  userMaxAttempts: 5,
  userIntervalMs: 5 * 60_000,
  userLockMs: 10 * 60_000,
  addressMaxFailures: 20,
  addressIntervalMs: 5 * 60_000,
  maxAddresses: 10_000,
}

export type LoginRefusal = { by: 'user' | 'address'; retryAfterMs: number }

/** The answer to a refused login: EMQX's for a locked user, 429 for an address over its limit. */
export function refusalError(refusal: LoginRefusal): ApiError {
  return refusal.by === 'user'
    ? new ApiError(401, 'LOGIN_LOCKED', 'Login locked')
    : new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many failed logins from this address, try again later')
}

export class LoginLock {
  private readonly limits: LoginLockLimits
  private readonly now: () => number
  /** Failed attempts per existing username, oldest first, within userIntervalMs. */
  private readonly userFailures = new Map<string, number[]>()
  private readonly lockedUntil = new Map<string, number>()
  /** Failed attempts per address, oldest first; Map order is least recently failing first. */
  private readonly addressFailures = new Map<string, number[]>()

  constructor(options: { limits?: Partial<LoginLockLimits>; now?: () => number } = {}) {
    this.limits = { ...LOGIN_LOCK_LIMITS, ...options.limits }
    this.now = options.now ?? Date.now
  }

  /** Why a login for `username` from `address` is refused before its password is checked, if it is. */
  refusal(username: string, address: string): LoginRefusal | undefined {
    const now = this.now()
    const fromAddress = this.recent(this.addressFailures, address, now - this.limits.addressIntervalMs)
    const over = fromAddress.length - this.limits.addressMaxFailures
    if (over >= 0) return { by: 'address', retryAfterMs: fromAddress[over]! + this.limits.addressIntervalMs - now }
    const until = this.lockedUntil.get(username)
    if (until !== undefined && until > now) return { by: 'user', retryAfterMs: until - now }
    if (until !== undefined) this.lockedUntil.delete(username)
    return undefined
  }

  /** Counts a wrong password (`userExists`) or an unknown username against the user and the address. */
  failed(username: string, address: string, userExists: boolean): void {
    const now = this.now()
    const fromAddress = this.recent(this.addressFailures, address, now - this.limits.addressIntervalMs)
    this.addressFailures.delete(address)
    this.addressFailures.set(address, [...fromAddress, now])
    if (this.addressFailures.size > this.limits.maxAddresses) this.addressFailures.delete(this.addressFailures.keys().next().value!)
    if (!userExists) return
    const attempts = this.recent(this.userFailures, username, now - this.limits.userIntervalMs)
    if (attempts.length >= this.limits.userMaxAttempts - 1) this.lockedUntil.set(username, now + this.limits.userLockMs)
    this.userFailures.set(username, [...attempts, now])
  }

  /** A successful login forgets the user's failed attempts and lock (not the address's failures). */
  succeeded(username: string): void {
    this.userFailures.delete(username)
    this.lockedUntil.delete(username)
  }

  private recent(failures: Map<string, number[]>, key: string, since: number): number[] {
    const all = failures.get(key) ?? []
    const first = all.findIndex((at) => at > since)
    if (first === 0) return all
    const kept = first === -1 ? [] : all.slice(first)
    if (kept.length === 0) failures.delete(key)
    else failures.set(key, kept)
    return kept
  }
}
