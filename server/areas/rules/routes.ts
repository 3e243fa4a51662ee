// /rules (paged with 5.8's filters, create), /rules/{id} (read, merge-update, delete), its metrics and
// their reset, /rule_test and /rules/{id}/test, /rule_events, /rule_engine. Shapes are contract/rules.ts;
// the checks and the engine are the feature's.
import type { FastifyInstance } from 'fastify'
import { RuleIdTestBodySchema, RuleListQuerySchema, RuleTestBodySchema, rulesErrors, type RuleInfo, type RulePage } from '../../../contract/rules.ts'
import { matchesFilter } from '../../broker/topic-trie.ts'
import { badRequest, contractError, parseInput } from '../../http/errors.ts'
import { pageOf } from '../../http/paging.ts'
import { objectBody, settingsRoute, type SettingsStore } from '../../http/settings-route.ts'
import { jsonEncode } from '../../rules/functions/values.ts'
import { parseActionId } from '../../rules/engine/index.ts'
import { ruleEventCatalogue } from '../../rules/events/index.ts'
import { generateRuleId, type RulesFeature } from './feature.ts'
import { testRule, testSql } from './rule-test.ts'
import { ruleEngineSettings } from './settings.ts'

type Params = { Params: { id: string } }

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value])

const notFound = () => contractError(rulesErrors.notFound, 'Rule Id Not Found')

export async function rulesRoutes(app: FastifyInstance, deps: { feature: RulesFeature; configs: SettingsStore }): Promise<void> {
  const rules = deps.feature

  app.get('/rules', async (request): Promise<RulePage> => {
    const q = parseInput(RuleListQuerySchema, request.query, 'query')
    const actions = list(q.action).map((id) => parseActionId(id)?.id ?? id)
    const sources = list(q.source).flatMap((id) => [`$bridges/${id}`, `$sources/${id}`])
    const infos = rules.repository
      .list()
      .map((stored) => rules.info(stored))
      .filter(
        (rule) =>
          (q.enable === undefined || rule.enable === (q.enable === 'true')) &&
          (q.from === undefined || rule.from.includes(q.from)) &&
          (q.like_id === undefined || rule.id.includes(q.like_id)) &&
          (q.like_from === undefined || rule.from.some((from) => from.includes(q.like_from!))) &&
          (q.like_description === undefined || rule.description.includes(q.like_description)) &&
          // emqx_topic:match(From, Pattern): the rule's FROM entry falls under the given filter.
          (q.match_from === undefined || rule.from.some((from) => matchesFilter(q.match_from!, from))) &&
          (actions.length === 0 || rule.actions.some((action) => typeof action === 'string' && actions.includes(action))) &&
          (sources.length === 0 || rule.from.some((from) => sources.includes(from))),
      )
    return pageOf(infos, q.page, q.limit)
  })

  app.post('/rules', async (request, reply): Promise<RuleInfo> => {
    const body = objectBody(request.body, 'body')
    const id = body.id === undefined ? generateRuleId() : body.id
    if (id === '') throw badRequest('empty rule id is not allowed')
    if (typeof id !== 'string') throw badRequest('rule id must be a string')
    const created = rules.create(id, body)
    return reply.status(201).send(rules.info(created))
  })

  app.get<Params>('/rules/:id', async (request): Promise<RuleInfo> => {
    const stored = rules.repository.get(request.params.id)
    if (!stored) throw notFound()
    return rules.info(stored)
  })

  app.put<Params>('/rules/:id', async (request): Promise<RuleInfo> => {
    return rules.info(rules.update(request.params.id, objectBody(request.body, 'body')))
  })

  app.delete<Params>('/rules/:id', async (request, reply) => {
    if (!rules.delete(request.params.id)) throw notFound()
    return reply.status(204).send()
  })

  app.get<Params>('/rules/:id/metrics', async (request) => {
    const metrics = rules.metrics(request.params.id)
    if (!metrics) throw notFound()
    return metrics
  })

  app.put<Params>('/rules/:id/metrics/reset', async (request, reply) => {
    if (!rules.resetMetrics(request.params.id)) throw notFound()
    return reply.status(204).send()
  })

  // The selected output may hold bytes: written as EMQX's JSON encoder writes them (as text).
  const sendJson = (reply: { type(t: string): { send(body: string): unknown } }, value: unknown) => reply.type('application/json').send(jsonEncode(value))

  app.post('/rule_test', async (request, reply) => {
    const body = parseInput(RuleTestBodySchema, request.body, 'body')
    return sendJson(reply, testSql(rules.engine, rules.node, body.sql, body.context))
  })

  app.post<Params>('/rules/:id/test', async (request, reply) => {
    const body = parseInput(RuleIdTestBodySchema, request.body, 'body')
    return sendJson(reply, testRule(rules.engine, rules.node, request.params.id, body.context, body.stop_action_after_template_rendering))
  })

  app.get('/rule_events', async () => ruleEventCatalogue)

  settingsRoute(app, '/rule_engine', ruleEngineSettings(rules.engine, deps.configs))
}
