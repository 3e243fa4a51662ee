// The rules as one settings document (EMQX root `rewrite`, kept under `topic_rewrite`): checked
// whole before anything changes, then saved and put in force. PUT /mqtt/topic_rewrite and PUT /configs share it.
import * as v from 'valibot'
import { MAX_REWRITE_RULES, topicRewriteErrors } from '../../../contract/topic-rewrite.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import type { SettingsStore } from '../../http/settings-route.ts'
import { RewriteRuleSchema, type TopicRewriteFeature } from './feature.ts'

export function prepareRules(rewrite: TopicRewriteFeature, store: SettingsStore, body: unknown, what = 'body'): () => void {
  const rules = parseInput(v.array(RewriteRuleSchema), body, what)
  if (rules.length >= MAX_REWRITE_RULES) throw contractError(topicRewriteErrors.exceedLimit, `Max rewrite rules count is ${MAX_REWRITE_RULES}`)
  return () => {
    store.set('topic_rewrite', rules)
    rewrite.configure(rules)
  }
}
