// Topic rewrite (EMQX `/mqtt/topic_rewrite`), written once for the server and the browser: the rule,
// the list (read and replaced whole, in order), the 20-rule limit and the errors. The server checks
// more on top (a valid source filter, a regex its linear-time engine runs, no wildcard in a PUBLISH
// destination): those need the broker, so they stay in server/areas/topic-rewrite/feature.ts.
import * as v from 'valibot'

/** EMQX answers 413 from this many rules on (its check is `length < 20`, so 19 is the most it takes). */
export const MAX_REWRITE_RULES = 20

export const rewriteActions = ['publish', 'subscribe', 'all'] as const
export type RewriteAction = (typeof rewriteActions)[number]

/** One rule, in the order EMQX writes its fields. */
export const RewriteRuleSchema = v.object({
  action: v.picklist(rewriteActions, 'must be publish, subscribe or all'),
  /** A topic filter the rule applies to. */
  source_topic: v.string(),
  /** `$1`, `$2`... are the groups of `re`; `${clientid}` and `${username}` are the client's. */
  dest_topic: v.pipe(v.string(), v.minLength(1, 'is required')),
  /** Regular expression over the topic. */
  re: v.string(),
})
export type RewriteRule = v.InferOutput<typeof RewriteRuleSchema>

/** `GET /mqtt/topic_rewrite`, and `PUT`'s body and answer: every rule, in order. */
export const RewriteRuleListSchema = v.array(RewriteRuleSchema)

/** The errors of this area: status and EMQX code. */
export const topicRewriteErrors = {
  /** 400: a rule the server refuses (its message names the rule and the field). */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 413: 20 rules or more. */
  exceedLimit: { status: 413, code: 'EXCEED_LIMIT' },
} as const
