// The topics as one settings document (EMQX root `auto_subscribe`, `topics`; kept under
// `auto_subscribe`): checked whole before anything changes, then saved and put in force.
// PUT /mqtt/auto_subscribe and PUT /configs share it.
import { AutoSubscribeListSchema, autoSubscribeErrors, MAX_AUTO_SUBSCRIBE } from '../../../contract/auto-subscribe.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import type { SettingsStore } from '../../http/settings-route.ts'
import type { AutoSubscribeFeature } from './feature.ts'

export function prepareTopics(autoSubscribe: AutoSubscribeFeature, store: SettingsStore, body: unknown, what = 'body'): () => void {
  const topics = parseInput(AutoSubscribeListSchema, body, what)
  // EMQX answers 409 here (not 413 as for topic rewrite), with this message.
  if (topics.length > MAX_AUTO_SUBSCRIBE) throw contractError(autoSubscribeErrors.exceedLimit, `Max auto subscribe topic count is  ${MAX_AUTO_SUBSCRIBE}`)
  return () => {
    store.set('auto_subscribe', topics)
    autoSubscribe.configure(topics)
  }
}
