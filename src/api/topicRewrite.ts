// Topic rewrite rules (`/mqtt/topic_rewrite`): the whole ordered list is read and written at once.
import { RewriteRuleListSchema, type RewriteRule } from '../../contract/topic-rewrite.ts'
import type { Http } from './http.ts'

export { rewriteActions, RewriteRuleSchema as rewriteRuleSchema, type RewriteRule } from '../../contract/topic-rewrite.ts'

export function topicRewriteApi(http: Http) {
  return {
    list(signal?: AbortSignal): Promise<RewriteRule[]> {
      return http.get('mqtt/topic_rewrite', RewriteRuleListSchema, undefined, signal)
    },
    /** Replaces the whole list (413 EXCEED_LIMIT past EMQX's 20 rules). */
    replace(rules: RewriteRule[]): Promise<RewriteRule[]> {
      return http.send('put', 'mqtt/topic_rewrite', RewriteRuleListSchema, rules)
    },
  }
}

export type TopicRewriteApi = ReturnType<typeof topicRewriteApi>
