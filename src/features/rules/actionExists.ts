// Whether an action a rule names exists. The console has no actions API module until the data
// integration issue brings one, so this asks EMQX's `GET /actions/{id}` itself: a 404 (no such
// action, or a server without actions at all) means the rule's output has nothing to run.
import * as v from 'valibot'
import { ApiError } from '../../../contract/api-error.ts'
import type { Api } from '../../api/index.ts'
import { pathSegment } from '../../api/clients.ts'

/** True when the action exists, false on a 404, undefined when the server could not say. */
export async function actionExists(api: Api, id: string, signal?: AbortSignal): Promise<boolean | undefined> {
  try {
    await api.http.get(`actions/${pathSegment(id)}`, v.unknown(), {}, signal)
    return true
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false
    return undefined
  }
}
