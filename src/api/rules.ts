// The rule engine: rules (paged, with EMQX 5.8's filters), their metrics, the dry run of a SQL
// statement against an event, the event catalogue and the engine settings.
import * as v from 'valibot'
import type { Http } from './http.ts'
import { pathSegment } from './clients.ts'
import { queryBoolean, queryPaging, queryText } from './listQuery.ts'
import {
  RuleEngineSettingsSchema,
  RuleEventListSchema,
  RuleInfoSchema,
  RuleMetricsResponseSchema,
  RulePageSchema,
  type RuleBody,
  type RuleEngineSettings,
  type RuleEventInfo,
  type RuleInfo,
  type RuleMetricsResponse,
  type RulePage,
} from '../../contract/rules.ts'

export type { RuleBody, RuleEngineSettings, RuleEventInfo, RuleInfo, RuleMetricsResponse, RulePage, RuleOutput, RepublishArgs } from '../../contract/rules.ts'

/** `GET /rules`' query: paging and the filters of 5.8 (`action` and `source` may repeat). */
export interface RuleListQuery {
  page?: number
  limit?: number
  enable?: boolean
  from?: string
  like_id?: string
  like_from?: string
  like_description?: string
  match_from?: string
  action?: string
}

/** The rule list's URL: EMQX 5.8's filters and the paging. */
export const rulesSearch = v.object({
  like_id: v.optional(queryText()),
  like_from: v.optional(queryText()),
  match_from: v.optional(queryText()),
  like_description: v.optional(queryText()),
  enable: v.optional(queryBoolean()),
  action: v.optional(queryText()),
  ...queryPaging,
})

export function rulesApi(http: Http) {
  return {
    list(query: RuleListQuery = {}, signal?: AbortSignal): Promise<RulePage> {
      return http.get('rules', RulePageSchema, { ...query }, signal)
    },
    /** 404 NOT_FOUND `Rule Id Not Found`. */
    get(id: string, signal?: AbortSignal): Promise<RuleInfo> {
      return http.get(`rules/${pathSegment(id)}`, RuleInfoSchema, {}, signal)
    },
    /** 201; 400 when the id exists or the SQL does not parse. */
    create(body: RuleBody): Promise<RuleInfo> {
      return http.send('post', 'rules', RuleInfoSchema, body)
    },
    /** Merges the given top-level keys over the stored rule. */
    update(id: string, body: Partial<RuleBody>): Promise<RuleInfo> {
      return http.send('put', `rules/${pathSegment(id)}`, RuleInfoSchema, body)
    },
    delete(id: string): Promise<void> {
      return http.send('delete', `rules/${pathSegment(id)}`, null)
    },
    metrics(id: string, signal?: AbortSignal): Promise<RuleMetricsResponse> {
      return http.get(`rules/${pathSegment(id)}/metrics`, RuleMetricsResponseSchema, {}, signal)
    },
    resetMetrics(id: string): Promise<void> {
      return http.send('put', `rules/${pathSegment(id)}/metrics/reset`, null)
    },
    /** The selected output (an array for FOREACH); 412 NOT_MATCH when the event does not pass. */
    test(sql: string, context: Record<string, unknown>): Promise<unknown> {
      return http.send('post', 'rule_test', v.unknown(), { sql, context })
    },
    /** Replays an event through a saved rule and its outputs. */
    testRule(id: string, context: Record<string, unknown>, stopActionAfterTemplateRendering = true): Promise<unknown> {
      return http.send('post', `rules/${pathSegment(id)}/test`, v.unknown(), {
        context,
        stop_action_after_template_rendering: stopActionAfterTemplateRendering,
      })
    },
    events(signal?: AbortSignal): Promise<RuleEventInfo[]> {
      return http.get('rule_events', RuleEventListSchema, {}, signal)
    },
    settings(signal?: AbortSignal): Promise<RuleEngineSettings> {
      return http.get('rule_engine', RuleEngineSettingsSchema, {}, signal)
    },
    updateSettings(settings: RuleEngineSettings): Promise<RuleEngineSettings> {
      return http.send('put', 'rule_engine', RuleEngineSettingsSchema, settings)
    },
  }
}

export type RulesApi = ReturnType<typeof rulesApi>
