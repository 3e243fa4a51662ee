// Authentication results as 5.8's trace prints them (`~0p` of the Erlang term): an authenticator's
// answer (`{ok,#{is_superuser => false}}`, `{error,bad_username_or_password}`, `ignore`) and the
// chain's (`{stop,...}` around the answer that decided).
import type { AuthDecision } from '../broker/hooks.ts'

/** One authenticator's answer. */
export function authenticatorTerm(answer: 'ignore' | { result: 'ok'; isSuperuser: boolean } | { result: 'error'; reason: string }): string {
  if (answer === 'ignore') return 'ignore'
  if (answer.result === 'ok') return `{ok,#{is_superuser => ${answer.isSuperuser}}}`
  return `{error,${answer.reason}}`
}

/** What the chain decided (do_authenticate/3's `{stop, Result}`); undefined for another round of enhanced authentication, not written. */
export function chainTerm(decision: AuthDecision): string | undefined {
  if (decision.result === 'allow') return `{stop,{ok,#{is_superuser => ${decision.isSuperuser ?? false}}}}`
  if (decision.result === 'deny') return `{stop,{error,${decision.reason}}}`
  return undefined
}
