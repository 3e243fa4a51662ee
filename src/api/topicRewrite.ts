// Topic rewrite rules (`/mqtt/topic_rewrite`): the whole ordered list is read and written at once.
import * as v from 'valibot'
import type { Http } from './http.ts'

export const rewriteActions = ['publish', 'subscribe', 'all'] as const

export const rewriteRuleSchema = v.object({
  action: v.picklist(rewriteActions),
  /** A topic filter the rule applies to. */
  source_topic: v.string(),
  /** Regular expression over the topic; its groups are `$1`, `$2`... in `dest_topic`. */
  re: v.string(),
  dest_topic: v.string(),
})
export type RewriteRule = v.InferOutput<typeof rewriteRuleSchema>

const rulesSchema = v.array(rewriteRuleSchema)

export function topicRewriteApi(http: Http) {
  return {
    list(signal?: AbortSignal): Promise<RewriteRule[]> {
      return http.get('mqtt/topic_rewrite', rulesSchema, undefined, signal)
    },
    /** Replaces the whole list (413 EXCEED_LIMIT past EMQX's 20 rules). */
    replace(rules: RewriteRule[]): Promise<RewriteRule[]> {
      return http.send('put', 'mqtt/topic_rewrite', rulesSchema, rules)
    },
  }
}

export type TopicRewriteApi = ReturnType<typeof topicRewriteApi>
