// Routes (`/topics`): the topics with at least one subscriber, per node, read with the contract
// (contract/topics.ts), and the list's URL query.
import * as v from 'valibot'
import { topicPageSchema, topicSchema, type Topic, type TopicPage } from '../../contract/topics.ts'
import type { Http } from './http.ts'
import { queryPaging, queryText } from './listQuery.ts'

export { topicPageSchema, topicSchema, type Topic, type TopicPage }

/** The query `GET /topics` understands, which the topic list's URL holds too. */
export const topicsSearch = v.object({
  /** Exact topic (filter) as subscribed, e.g. `sensors/+/temp`. */
  topic: v.optional(queryText()),
  node: v.optional(queryText()),
  ...queryPaging,
})
export type TopicListParams = v.InferOutput<typeof topicsSearch>

export function topicsApi(http: Http) {
  return {
    list(params: TopicListParams = {}, signal?: AbortSignal): Promise<TopicPage> {
      return http.get('topics', topicPageSchema, { ...params }, signal)
    },
    /** Up to 10 routed topics containing `query`, for completion (the API filters by exact topic only). */
    async suggest(query: string, signal?: AbortSignal): Promise<string[]> {
      const page = await http.get('topics', topicPageSchema, { page: 1, limit: 1000 }, signal)
      const needle = query.trim()
      const topics = [...new Set(page.data.map((t) => t.topic))]
      return topics.filter((topic) => topic.includes(needle)).slice(0, 10)
    },
  }
}

export type TopicsApi = ReturnType<typeof topicsApi>
