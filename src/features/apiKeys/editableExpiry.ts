// The expiry an API key's edit form starts with.
import { NEVER, notInPast } from '../../../commands/apiKeys.ts'
import { neverExpires, type ApiKey } from '../../api/apiKeys.ts'

/** The edit form's expiry: 'never', or the current time while it is still ahead (a past one must be replaced, so it starts empty). */
export function editableExpiry(key: Pick<ApiKey, 'expired_at'>, now: number = Date.now()): string {
  if (neverExpires(key.expired_at)) return NEVER
  const text = typeof key.expired_at === 'number' ? new Date(key.expired_at * 1000).toISOString() : String(key.expired_at)
  return notInPast(text, now) ? text : ''
}
